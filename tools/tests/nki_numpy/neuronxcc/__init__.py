"""A NumPy stand-in for the `neuronxcc` package: only `neuronxcc.nki`,
and of it only the nki.language / nki.isa subset aic's NKI Python emitter
uses (aic-translate --target=nki --emit=python). Tests put this folder on
PYTHONPATH where the real package is not importable; it is not AWS's
package and models no hardware timing."""
