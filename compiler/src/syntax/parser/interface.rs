//! The parsing interface that declarative formats and hand-written custom
//! parsers use: tokens, keywords, numbers, operands, symbols, regions,
//! successors and signature arguments (types and attributes in
//! [`super::types`], locations in [`super::locations`]).

use super::*;

/// The parsing interface that declarative formats and hand-written custom parsers use.
/// Every method skips whitespace and comments first; `parse_*` methods fail with a
/// diagnostic, `eat_*`/`parse_optional_*` methods leave the input untouched when the
/// item is absent.
impl<'s> OpParser<'s, '_> {
    /// Byte offset of the next token in the file.
    pub fn pos(&mut self) -> usize {
        self.skip_trivia();
        self.pos
    }
    /// The context being parsed into.
    pub fn context(&mut self) -> &mut Context {
        self.ctx
    }
    /// The uniquer of the context (for interning types and attributes); a shared
    /// handle, so it can be held while the parser moves on.
    pub fn uniquer(&self) -> std::sync::Arc<crate::ir::Uniquer> {
        self.ctx.uniquer().clone()
    }
    /// An error at file offset `at`.
    pub fn error_at(&self, at: usize, msg: impl Into<String>) -> Diagnostic {
        let end = self.src[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8());
        Diagnostic::error(msg).at_span(self.file, at, end)
    }
    /// The location attribute (`file:line:col`) of file offset `at`.
    pub fn location_at(&self, at: usize) -> Attr {
        self.loc_at(at)
    }
    /// The next byte, if any.
    pub fn peek_byte(&mut self) -> Option<u8> {
        self.peek()
    }
    pub(super) fn token_matches(&mut self, tok: &str) -> bool {
        self.skip_trivia();
        let rest = &self.src[self.pos..];
        if !rest.starts_with(tok) {
            return false;
        }
        // A keyword must not run on into a longer identifier.
        let word = tok
            .bytes()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
        !(word
            && rest[tok.len()..]
                .bytes()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || b"_$.".contains(&c)))
    }
    /// Whether the next token is `kw` (without consuming it).
    pub fn peek_keyword(&mut self, kw: &str) -> bool {
        self.token_matches(kw)
    }
    /// Consume the keyword or punctuation `tok` if it is next.
    pub fn eat_token(&mut self, tok: &str) -> bool {
        if self.token_matches(tok) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }
    /// Consume the keyword `kw` if it is next.
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        self.eat_token(kw)
    }
    /// Consume `tok` or fail with MLIR's "expected 'tok'".
    pub fn expect_token(&mut self, tok: &str) -> R<()> {
        if self.eat_token(tok) {
            Ok(())
        } else {
            // MLIR reports a missing token just past the previous one, so that the
            // error stays on the line where the token was due.
            let at = self.end_of_previous_token();
            Err(Diagnostic::error(format!("expected '{tok}'")).at_span(self.file, at, at))
        }
    }
    /// The end of the last token before the current position, skipping back over
    /// whitespace and `//` comments.
    pub(super) fn end_of_previous_token(&mut self) -> usize {
        let b = self.src.as_bytes();
        let mut end = self.pos();
        loop {
            while end > 0 && b[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            let line_start = b[..end]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
            match comment_start(&b[line_start..end]) {
                Some(c) => end = line_start + c,
                None => return end,
            }
        }
    }
    /// The properties of a `spec` op written without inherent attributes: its
    /// defaults, interned once per op kind.
    pub fn default_props(&mut self, spec: &crate::dialect::OpSpec) -> Option<Attr> {
        if let Some(p) = self.default_props.get(spec.name) {
            return *p;
        }
        let mut inherent = Vec::new();
        crate::asm::add_defaults(self.ctx.uniquer(), spec, &mut inherent);
        let p = (!inherent.is_empty()).then(|| self.ctx.dict_attr(inherent));
        self.default_props.insert(spec.name.to_string(), p);
        p
    }
    /// An error a custom parser reports itself, prefixed with the op as MLIR's
    /// `OpAsmParser::emitError` does (`custom op 'scf.while' ...`).
    pub fn custom_error(&self, at: usize, msg: impl std::fmt::Display) -> Diagnostic {
        let name = self.op_names.last().copied().unwrap_or("");
        self.error_at(at, format!("custom op '{name}' {msg}"))
    }
    /// The keyword `kw`, or MLIR's "expected 'kw'" error at the next token.
    pub fn expect_keyword(&mut self, kw: &str) -> R<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            self.skip_trivia();
            Err(self.error_here(format!("expected '{kw}'")))
        }
    }
    /// Whether the text ahead (after whitespace and comments) starts with `s`.
    pub fn peek_text(&mut self, s: &str) -> bool {
        self.skip_trivia();
        self.src[self.pos..].starts_with(s)
    }
    /// A decimal float or integer literal (`-1.5e-3`, `4`), as its value.
    pub fn parse_float_literal(&mut self) -> R<f64> {
        self.skip_trivia();
        let at = self.pos;
        let rest = &self.src[self.pos..];
        let n = rest
            .char_indices()
            .take_while(|(i, c)| {
                c.is_ascii_digit()
                    || *c == '.'
                    || ((*c == '-' || *c == '+') && (*i == 0 || rest[..*i].ends_with(['e', 'E'])))
                    || ((*c == 'e' || *c == 'E') && *i > 0)
            })
            .count();
        let text = &rest[..n];
        match text.parse::<f64>() {
            Ok(v) if n > 0 => {
                self.pos += n;
                Ok(v)
            }
            _ => Err(self.error_at(at, "expected a floating-point value")),
        }
    }
    /// A decimal integer literal with an optional `-` (MLIR's `parseInteger`).
    pub fn parse_integer(&mut self) -> R<i64> {
        self.skip_trivia();
        let at = self.pos;
        let neg = self.src.as_bytes().get(self.pos) == Some(&b'-');
        if neg {
            self.pos += 1;
        }
        let digits = self.scan_digits();
        if digits.is_empty() {
            self.pos = at;
            return Err(self.error_at(at, "expected integer value"));
        }
        let text = &self.src[at..self.pos];
        text.parse::<i64>()
            .map_err(|_| self.error_at(at, "integer value too large"))
    }
    /// A bare identifier (letters, digits, `_`, `$`, `.`); empty if none.
    pub fn parse_bare_word(&mut self) -> &'s str {
        self.skip_trivia();
        let src: &'s str = self.src;
        let rest = &src[self.pos..];
        let n = if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_$.".contains(c)))
                .unwrap_or(rest.len())
        } else {
            0
        };
        self.pos += n;
        &rest[..n]
    }
    /// `%name` or `%name#N`.
    pub fn parse_operand(&mut self) -> R<UnresolvedOperand<'s>> {
        match self.parse_optional_operand()? {
            Some(u) => Ok(u),
            None => Err(self.error_here("expected SSA operand")),
        }
    }
    /// An operand if one is next.
    pub fn parse_optional_operand(&mut self) -> R<Option<UnresolvedOperand<'s>>> {
        if self.peek() != Some(b'%') {
            return Ok(None);
        }
        let at = self.pos;
        let name = self.scan_sigil_id(b'%')?;
        let mut index = 0;
        if self.src.as_bytes().get(self.pos) == Some(&b'#') {
            self.pos += 1;
            index = self
                .scan_digits()
                .parse::<usize>()
                .map_err(|_| self.error_at(at, "invalid result number"))?;
        }
        Ok(Some(UnresolvedOperand { name, index, at }))
    }
    /// `(%inner = %outer, ...)`: MLIR's `parseAssignmentList`, the inner names
    /// and the outer operands.
    pub fn parse_assignment_list(
        &mut self,
    ) -> R<(Vec<UnresolvedOperand<'s>>, Vec<UnresolvedOperand<'s>>)> {
        self.expect_token("(")?;
        let (mut inner, mut outer) = (Vec::new(), Vec::new());
        if !self.eat_token(")") {
            loop {
                inner.push(self.parse_operand()?);
                self.expect_token("=")?;
                outer.push(self.parse_operand()?);
                if !self.eat_token(",") {
                    break;
                }
            }
            self.expect_token(")")?;
        }
        Ok((inner, outer))
    }
    /// Comma-separated operands; empty when no `%` follows.
    pub fn parse_operand_list(&mut self) -> R<Vec<UnresolvedOperand<'s>>> {
        let mut out = Vec::new();
        if let Some(first) = self.parse_optional_operand()? {
            out.push(first);
            while self.eat_token(",") {
                out.push(self.parse_operand()?);
            }
        }
        Ok(out)
    }
    /// Give an operand its type and find (or forward-declare) its value.
    pub fn resolve_operand(&mut self, u: &UnresolvedOperand<'s>, ty: Type) -> R<Value> {
        self.resolve(u.name, u.index, ty, u.at)
    }
    /// `@name` or `@"name"`, returned without the `@`.
    pub fn parse_symbol_name(&mut self) -> R<String> {
        if self.peek() != Some(b'@') {
            return Err(self.error_here("expected valid '@'-identifier for symbol name"));
        }
        let start = self.pos;
        let p = self.rule(Rule::symbol_part)?;
        let inner = p.into_inner().next().expect("symbol body");
        if inner.as_rule() == Rule::string {
            let low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
                .with_registry(self.ctx.registry());
            Ok(String::from_utf8_lossy(&low.string_bytes(&inner)?).into_owned())
        } else {
            Ok(inner.as_str().to_string())
        }
    }
    /// A string literal `"..."`, escapes decoded; unlike a string attribute,
    /// no `: type` follows (a `:` after it belongs to the op).
    pub fn parse_string(&mut self) -> R<Vec<u8>> {
        if self.peek() != Some(b'"') {
            return Err(self.error_here("expected string literal"));
        }
        let start = self.pos;
        let p = self.rule(Rule::string)?;
        let low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
            .with_registry(self.ctx.registry());
        low.string_bytes(&p)
    }
    /// The unit attribute.
    pub fn unit_attr(&self) -> Attr {
        self.ctx.attr(AttrKind::Unit)
    }
    /// A region `{...}`; `args` become the entry block's arguments (named in the
    /// enclosing signature, as `func.func` writes them).
    pub fn parse_region(&mut self, args: &[Argument<'s>]) -> R<Region> {
        if self.peek() != Some(b'{') {
            let at = self.end_of_previous_token();
            return Err(
                Diagnostic::error("expected '{' to begin a region").at_span(self.file, at, at)
            );
        }
        let isolated = self.op_isolated.last().copied().unwrap_or(false);
        self.region_impl(isolated, args)
    }
    /// A successor block reference `^bb1`.
    pub fn parse_successor(&mut self) -> R<Block> {
        let at = self.pos();
        let name = self.scan_sigil_id(b'^')?;
        Ok(self.block_ref(name, at))
    }

    /// A signature argument `%name: type {attrs}? loc(...)?`.
    pub fn parse_argument(&mut self) -> R<Argument<'s>> {
        let at = self.pos();
        let name = self.scan_sigil_id(b'%')?;
        self.expect_token(":")?;
        let ty = self.parse_type()?;
        let attrs = if self.peek() == Some(b'{') {
            let entries = self.parse_optional_attr_dict()?;
            Some(self.ctx.dict_attr(entries))
        } else {
            None
        };
        let loc = self.parse_optional_location()?;
        Ok(Argument {
            name,
            at,
            ty,
            attrs,
            loc,
        })
    }
}
