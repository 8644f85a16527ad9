//! Types and attributes in the parsing interface, with the caches that let
//! text seen before skip the grammar.

use super::*;

impl<'s> OpParser<'s, '_> {
    /// A type.
    pub fn parse_type(&mut self) -> R<Type> {
        let start = self.pos();
        let src: &'s str = self.src;
        if src.as_bytes().get(start) == Some(&b'(') {
            return self.parse_function_type();
        }
        let key = type_extent(src.as_bytes(), start).map(|end| &src[start..end]);
        if let Some(k) = key
            && let Some(&(t, spent)) = self.type_cache.get(k)
        {
            self.spend_again(spent, start)?;
            self.pos = start + k.len();
            return Ok(t);
        }
        let p = self.rule(Rule::type_)?;
        let before = self.aliases.expansion();
        let t = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
            .with_registry(self.ctx.registry())
            .ty(p)?;
        if let Some(k) = key
            && self.pos == start + k.len()
        {
            if self.type_cache.len() >= CACHE_CAPACITY {
                self.type_cache.clear();
            }
            self.type_cache
                .insert(k, (t, self.aliases.expansion() - before));
        }
        Ok(t)
    }

    /// `(inputs) -> result` or `(inputs) -> (results)`, read structurally so that
    /// its element types go through the cache.
    fn parse_function_type(&mut self) -> R<Type> {
        if self.type_nesting >= crate::syntax::MAX_NESTING {
            return Err(self.error_here(format!(
                "nesting deeper than {} levels",
                crate::syntax::MAX_NESTING
            )));
        }
        self.type_nesting += 1;
        self.expect_token("(")?;
        let mut inputs = SmallVec::<[Type; 4]>::new();
        if !self.eat_token(")") {
            loop {
                inputs.push(self.parse_type()?);
                if !self.eat_token(",") {
                    break;
                }
            }
            self.expect_token(")")?;
        }
        self.expect_token("->")?;
        let mut results = SmallVec::<[Type; 2]>::new();
        if self.eat_token("(") {
            if !self.eat_token(")") {
                loop {
                    results.push(self.parse_type()?);
                    if !self.eat_token(",") {
                        break;
                    }
                }
                self.expect_token(")")?;
            }
        } else {
            results.push(self.parse_type()?);
        }
        self.type_nesting -= 1;
        Ok(self.ctx.function_type(&inputs, &results))
    }
    /// Whether a type can start here (tries one and rewinds).
    pub fn type_starts(&mut self) -> bool {
        let save = self.pos();
        let ok = self.rule(Rule::type_).is_ok();
        self.pos = save;
        ok
    }
    /// A type if one is next.
    pub fn parse_optional_type(&mut self) -> R<Option<Type>> {
        if self.type_starts() {
            self.parse_type().map(Some)
        } else {
            Ok(None)
        }
    }
    /// Comma-separated types; empty when no type follows.
    pub fn parse_type_list(&mut self) -> R<Vec<Type>> {
        let mut out = Vec::new();
        if let Some(t) = self.parse_optional_type()? {
            out.push(t);
            while self.eat_token(",") {
                out.push(self.parse_type()?);
            }
        }
        Ok(out)
    }
    /// Inputs and results of a function type.
    pub fn function_type_parts(&self, t: Type) -> Option<(Vec<Type>, Vec<Type>)> {
        match self.ctx.type_kind(t) {
            TypeKind::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
            _ => None,
        }
    }
    /// An attribute; integer and float literals without `: type` get `ty` if given.
    pub fn parse_attribute(&mut self, ty: Option<Type>) -> R<Attr> {
        let start = self.pos();
        let src: &'s str = self.src;
        // A type hint changes what the text means, so hinted parses bypass the cache.
        let key = if ty.is_none() {
            attr_extent(src.as_bytes(), start).map(|end| &src[start..end])
        } else {
            None
        };
        if let Some(k) = key
            && let Some(&(a, spent)) = self.attr_cache.get(k)
        {
            self.spend_again(spent, start)?;
            self.pos = start + k.len();
            return Ok(a);
        }
        let p = self.rule(Rule::attribute)?;
        let before = self.aliases.expansion();
        let mut low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
            .with_registry(self.ctx.registry());
        low.type_hint = ty;
        let a = low.attr(p)?;
        if let Some(k) = key
            && self.pos == start + k.len()
        {
            if self.attr_cache.len() >= CACHE_CAPACITY {
                self.attr_cache.clear();
            }
            self.attr_cache
                .insert(k, (a, self.aliases.expansion() - before));
        }
        Ok(a)
    }
    /// Whether an attribute can start here (tries one and rewinds).
    pub fn attribute_starts(&mut self) -> bool {
        let save = self.pos();
        let ok = self.rule(Rule::attribute).is_ok();
        self.pos = save;
        ok
    }
    /// `{name = value, ...}` if next (entries sorted by name); empty otherwise.
    pub fn parse_optional_attr_dict(&mut self) -> R<Vec<(Ident, Attr)>> {
        if self.peek() != Some(b'{') {
            return Ok(Vec::new());
        }
        self.pos += 1;
        let mut entries: Vec<(Ident, Attr)> = Vec::new();
        if !self.eat_token("}") {
            loop {
                let at = self.pos();
                let key = if self.peek() == Some(b'"') {
                    self.parse_string_literal()?
                } else {
                    std::borrow::Cow::Borrowed(self.parse_bare_word())
                };
                if key.is_empty() && self.src.as_bytes().get(at) != Some(&b'"') {
                    return Err(self.error_here("expected attribute name"));
                }
                let id = self.ctx.ident(&key);
                let value = if self.eat_token("=") {
                    self.parse_attribute(None)?
                } else {
                    self.ctx.attr(AttrKind::Unit)
                };
                if entries.iter().any(|(k, _)| *k == id) {
                    return Err(
                        self.error_at(at, format!("duplicate key '{key}' in dictionary attribute"))
                    );
                }
                entries.push((id, value));
                if !self.eat_token(",") {
                    break;
                }
            }
            self.expect_token("}")?;
        }
        let u = self.ctx.uniquer();
        entries.sort_by(|a, b| u.str(a.0).cmp(u.str(b.0)));
        Ok(entries)
    }
}

/// End of the type spelled at `start` (an identifier, then a bracketed body), or
/// `None` when it does not look like one the cache should hold.
fn type_extent(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    if b.get(i) == Some(&b'!') {
        i += 1;
    }
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || b"_.$".contains(c))
    {
        i += 1;
    }
    if i == start || i - start > CACHE_SCAN_LIMIT {
        return None;
    }
    if b.get(i) == Some(&b'<') {
        i = balanced_end(b, i, start + CACHE_SCAN_LIMIT)?;
    }
    Some(i)
}

/// End of the bracketed group opening at `open` (`<`, `(`, `[` or `{`), skipping
/// strings and the `->`, `>=`, `<=` tokens; `None` past `limit` or at a comment.
fn balanced_end(b: &[u8], open: usize, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len().min(limit) {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
            b'>' | b'<' if b.get(i + 1) == Some(&b'=') && i > open => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => return None,
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' | b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// End of the attribute spelled at `start` (trailing whitespace excluded): up to a
/// separator or closing bracket at nesting depth zero, or the end of the line.
fn attr_extent(b: &[u8], start: usize) -> Option<usize> {
    let limit = (start + CACHE_SCAN_LIMIT).min(b.len());
    let mut i = start;
    while i < limit {
        match b[i] {
            b',' | b')' | b']' | b'}' | b'>' | b'\n' => break,
            b'{' if i > start => break,
            b'-' if b.get(i + 1) == Some(&b'>') => i += 2,
            b'"' | b'<' | b'(' | b'[' | b'{' => {
                i = if b[i] == b'"' {
                    let mut j = i + 1;
                    while j < b.len() && b[j] != b'"' {
                        j += if b[j] == b'\\' { 2 } else { 1 };
                    }
                    j + 1
                } else {
                    balanced_end(b, i, limit)?
                };
            }
            b'/' if b.get(i + 1) == Some(&b'/') => return None,
            _ => i += 1,
        }
    }
    if i >= limit && i < b.len() {
        return None;
    }
    let mut end = i.min(b.len());
    while end > start && b[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    (end > start).then_some(end)
}
