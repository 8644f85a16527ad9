//! Locations in the parsing interface: `loc(...)` read directly in its two
//! common shapes, and locations that name an alias defined later, resolved
//! once the file is read.

use super::*;

impl<'s> OpParser<'s, '_> {
    /// A trailing `loc(...)` if next.
    pub fn parse_optional_location(&mut self) -> R<Option<Attr>> {
        if !self.token_matches("loc") || !self.src[self.pos + 3..].trim_start().starts_with('(') {
            return Ok(None);
        }
        let start = self.pos;
        if let Some(l) = self.fast_location() {
            return Ok(Some(l));
        }
        self.pos = start;
        let p = self.rule(Rule::location)?;
        Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
            .with_registry(self.ctx.registry())
            .loc(p)
            .map(Some)
    }

    /// The two shapes nearly every location has, `loc("file":line:col)` and
    /// `loc(#alias)`, read directly; `None` (input position unspecified) otherwise.
    fn fast_location(&mut self) -> Option<Attr> {
        self.pos += 3;
        self.skip_trivia();
        self.pos += 1;
        self.skip_trivia();
        let loc = match self.src.as_bytes().get(self.pos)? {
            b'"' => {
                let file = match self.parse_string_literal().ok()? {
                    std::borrow::Cow::Borrowed(f) => f,
                    std::borrow::Cow::Owned(_) => return None,
                };
                let mut num = || -> Option<u32> {
                    if self.src.as_bytes().get(self.pos) != Some(&b':') {
                        return None;
                    }
                    self.pos += 1;
                    self.scan_digits().parse().ok()
                };
                let (line, col) = (num()?, num()?);
                self.ctx.attr(AttrKind::Location(LocKind::FileLineCol {
                    file: self.ctx.ident(file),
                    line,
                    col,
                    end: None,
                }))
            }
            b'#' => {
                let at = self.pos;
                self.pos += 1;
                let name = self.parse_bare_word();
                match self.aliases.attrs.get(name) {
                    Some(&a) if matches!(self.ctx.attr_kind(a), AttrKind::Location(_)) => {
                        // Over budget: the grammar's reading reports it.
                        self.aliases.spend_attr(self.ctx.uniquer(), name, a).ok()?;
                        a
                    }
                    Some(_) => return None,
                    None if !name.is_empty() => self.deferred_loc(name, at),
                    None => return None,
                }
            }
            _ => return None,
        };
        self.eat_token(")").then_some(loc)
    }
    /// The placeholder for a location alias not defined yet.
    fn deferred_loc(&mut self, name: &'s str, at: usize) -> Attr {
        if let Some(&(a, _)) = self.deferred_locs.get(name) {
            return a;
        }
        // A name no parsed location can have: it holds a NUL.
        let marker = self.ctx.ident(&format!("\0aic-deferred-location #{name}"));
        let a = self.ctx.attr(AttrKind::Location(LocKind::Name {
            name: marker,
            child: None,
        }));
        self.deferred_locs.insert(name, (a, at));
        a
    }

    /// Charge a cached spelling's alias uses again (see [`Aliases::spend_again`]).
    pub(super) fn spend_again(&self, spent: u64, at: usize) -> R<()> {
        if spent == 0 {
            return Ok(());
        }
        self.aliases
            .spend_again(spent)
            .map_err(|m| self.error_at(at, m))
    }

    /// Replace deferred location placeholders by the aliases defined meanwhile.
    pub(super) fn resolve_deferred_locs(&mut self) -> R<()> {
        if self.deferred_locs.is_empty() {
            return Ok(());
        }
        let mut map: HashMap<Attr, Attr, FxBuild> = HashMap::default();
        let mut pending: Vec<(&'s str, (Attr, usize))> =
            self.deferred_locs.iter().map(|(k, v)| (*k, *v)).collect();
        pending.sort_by_key(|(_, (_, at))| *at);
        for (name, (ph, at)) in pending {
            match self.aliases.attrs.get(name) {
                Some(&a) if matches!(self.ctx.attr_kind(a), AttrKind::Location(_)) => {
                    map.insert(ph, a);
                }
                Some(_) => {
                    return Err(self.error_at(
                        at,
                        format!("expected location, but found non-location alias '#{name}'"),
                    ));
                }
                None => {
                    return Err(
                        Diagnostic::error(format!("undefined symbol alias id '{name}'")).at_span(
                            self.file,
                            at + 1,
                            at + 1 + name.len(),
                        ),
                    );
                }
            }
        }
        self.ctx.remap_locations(&map);
        Ok(())
    }
}
