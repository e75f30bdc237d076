//! Reading GNAT's `.ali` files: the dependency lines (`D`) and the cross-reference
//! sections (`X`) that `gcc -c -gnatc` writes for every compiled unit.
//!
//! The layout (GNAT's `lib-xref.ads`):
//! - `D file time checksum [unit]` numbers the files the unit depends on, from 1, in
//!   order; a `dep|` prefix in a reference is such a number.
//! - `X dep file` opens the entities declared in `file`; each following line is one
//!   entity: `line kind col level name[modifiers] ref ref …`, where `level` is `*`
//!   for a library-level entity and a space otherwise, and the modifiers are a
//!   renaming (`=line:col`, the position of the renamed name in the renaming
//!   declaration), an instance (`[dep|line]`, the generic this entity instantiates)
//!   and type references (`{…}`, `<…>`, `(…)`). A line starting with `.` continues
//!   the previous entity's references.
//! - A reference is `[dep|]line kind[<convention,name>]col[instances]`; a `dep|`
//!   prefix sets the file of this and the following references of the entity
//!   (before any, it is the entity's own file); `<c,name>` is import information
//!   (`pragma Import`), `[…]` nested instantiation brackets.
//!
//! Columns are what GNAT counts: characters, a tab advancing to the next multiple of
//! eight (gnat.rs turns them into bytes). Nothing here interprets the kinds; a line
//! that does not parse is skipped and counted, so one odd line cannot lose a unit.

/// One `.ali` file's dependencies and cross-references.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ali {
    /// `D` lines in order: dependency number `n` is `deps[n - 1]`.
    pub deps: Vec<Dep>,
    pub sections: Vec<XSection>,
    /// Lines of the X sections that did not parse.
    pub skipped_lines: u32,
}

/// A file the unit depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dep {
    /// The file's name as GNAT found it (no directory).
    pub file: String,
    /// The unit it holds, as GNAT spells it (`ada.text_io%s`), when given.
    pub unit: Option<String>,
}

/// The entities declared in one file, with every reference to them from this unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XSection {
    pub dep: u32,
    pub file: String,
    pub entities: Vec<Entity>,
}

/// One declared entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    pub line: u32,
    /// GNAT's entity letter (`U` procedure, `V` function, `K` package, …).
    pub kind: char,
    pub col: u32,
    pub library_level: bool,
    /// As declared: an identifier, an operator designator (`"+"`) or a character
    /// literal (`'a'`).
    pub name: String,
    /// A renaming declaration: where the renamed name is written in it.
    pub renames: Option<Place>,
    /// A generic instance: the generic's declaration.
    pub instance_of: Option<Place>,
    pub refs: Vec<Ref>,
}

/// A position in a dependency file (`col` 0 where GNAT gives only a line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    pub dep: u32,
    pub line: u32,
    pub col: u32,
}

/// One reference to an entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref {
    pub at: Place,
    /// `s` static call, `R` dispatching call, `b` body, `t` end of body, `r`
    /// reference, `m` modification, …
    pub kind: char,
    /// `pragma Import` information (`c,gnat_wctype`).
    pub import: Option<String>,
}

impl Ali {
    /// Reads the text of one `.ali` file.
    pub fn parse(text: &str) -> Ali {
        let mut ali = Ali::default();
        let mut section: Option<XSection> = None;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("D ") {
                ali.deps.push(dep_line(rest));
                continue;
            }
            if let Some(rest) = line.strip_prefix("X ") {
                if let Some(done) = section.take() {
                    ali.sections.push(done);
                }
                match section_header(rest) {
                    Some(s) => section = Some(s),
                    None => ali.skipped_lines += 1,
                }
                continue;
            }
            let Some(current) = section.as_mut() else {
                continue;
            };
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix('.') {
                match current.entities.last_mut() {
                    Some(entity) => {
                        // The file of a continuation's first reference is the last
                        // one named on the entity's earlier lines.
                        let file = entity.refs.last().map_or(current.dep, |r| r.at.dep);
                        if !read_refs(rest, file, &mut entity.refs) {
                            ali.skipped_lines += 1;
                        }
                    }
                    None => ali.skipped_lines += 1,
                }
                continue;
            }
            match entity_line(line, current.dep) {
                Some(entity) => current.entities.push(entity),
                // Other sections (`G`, `U`, `W`, …) end at an X header; within an
                // X section a line that is not an entity is counted, not trusted.
                None => ali.skipped_lines += 1,
            }
        }
        if let Some(done) = section.take() {
            ali.sections.push(done);
        }
        ali
    }

    /// The dependency file numbered `dep`.
    pub fn dep(&self, dep: u32) -> Option<&Dep> {
        dep.checked_sub(1).and_then(|i| self.deps.get(i as usize))
    }
}

/// `file time checksum [unit]`.
fn dep_line(rest: &str) -> Dep {
    let mut fields = rest.split_whitespace();
    let file = fields.next().unwrap_or_default().to_string();
    let unit = fields.nth(2).map(str::to_string);
    Dep { file, unit }
}

/// `dep file`.
fn section_header(rest: &str) -> Option<XSection> {
    let mut fields = rest.split_whitespace();
    let dep = fields.next()?.parse().ok()?;
    let file = fields.next()?.to_string();
    Some(XSection {
        dep,
        file,
        entities: Vec::new(),
    })
}

/// `line kind col level name[modifiers] refs…`.
fn entity_line(line: &str, file: u32) -> Option<Entity> {
    let mut s = Scanner::new(line);
    let at_line = s.number()?;
    let kind = s.any()?;
    let col = s.number()?;
    let library_level = match s.any()? {
        '*' => true,
        ' ' => false,
        _ => return None,
    };
    let name = s.designator()?;
    let mut entity = Entity {
        line: at_line,
        kind,
        col,
        library_level,
        name,
        renames: None,
        instance_of: None,
        refs: Vec::new(),
    };
    // Modifiers run up to the first space.
    while let Some(c) = s.peek() {
        match c {
            ' ' => break,
            '=' => {
                s.any();
                entity.renames = Some(s.renaming(file)?);
            }
            '[' => {
                let inner = s.bracketed('[', ']')?;
                entity.instance_of = instance_place(inner, file);
            }
            '{' => {
                s.bracketed('{', '}')?;
            }
            '<' => {
                s.bracketed('<', '>')?;
            }
            '(' => {
                s.bracketed('(', ')')?;
            }
            _ => return None,
        }
    }
    if !read_refs(s.rest(), file, &mut entity.refs) {
        return None;
    }
    Some(entity)
}

/// `dep|line` (or `line`) of an instance bracket, nested brackets after it ignored.
fn instance_place(inner: &str, file: u32) -> Option<Place> {
    let head = inner.split('[').next()?;
    let (dep, line) = match head.split_once('|') {
        Some((d, l)) => (d.parse().ok()?, l),
        None => (file, head),
    };
    Some(Place {
        dep,
        line: line.parse().ok()?,
        col: 0,
    })
}

/// Reads space-separated references into `out`; `file` is the file of a reference
/// that names none. False when some token is not a reference.
fn read_refs(text: &str, mut file: u32, out: &mut Vec<Ref>) -> bool {
    for token in text.split_whitespace() {
        match reference(token, file) {
            Some(r) => {
                file = r.at.dep;
                out.push(r);
            }
            None => return false,
        }
    }
    true
}

/// `[dep|]line kind[<import>]col[instances]`.
fn reference(token: &str, file: u32) -> Option<Ref> {
    let mut s = Scanner::new(token);
    let first = s.number()?;
    let (dep, line) = if s.peek() == Some('|') {
        s.any();
        (first, s.number()?)
    } else {
        (file, first)
    };
    let kind = s.any()?;
    if kind.is_ascii_digit() {
        return None;
    }
    let import = if s.peek() == Some('<') {
        Some(s.bracketed('<', '>')?.to_string())
    } else {
        None
    };
    let col = s.number()?;
    if s.peek() == Some('[') {
        s.bracketed('[', ']')?;
    }
    if !s.rest().is_empty() {
        return None;
    }
    Some(Ref {
        at: Place { dep, line, col },
        kind,
        import,
    })
}

/// A cursor over one line's characters.
struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Scanner<'a> {
        Scanner { text, at: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn any(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn number(&mut self) -> Option<u32> {
        let digits = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let n = self.rest()[..digits].parse().ok()?;
        self.at += digits;
        Some(n)
    }

    /// An identifier, `"op"` or `'c'`.
    fn designator(&mut self) -> Option<String> {
        let rest = self.rest();
        let len = match rest.chars().next()? {
            '"' => rest[1..].find('"')? + 2,
            '\'' => {
                let c = rest[1..].chars().next()?;
                let end = 1 + c.len_utf8();
                (rest[end..].starts_with('\'')).then_some(end + 1)?
            }
            _ => rest
                .char_indices()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
                .map_or(rest.len(), |(i, _)| i),
        };
        if len == 0 {
            return None;
        }
        self.at += len;
        Some(rest[..len].to_string())
    }

    /// `[dep|]line:col` after a renaming's `=`.
    fn renaming(&mut self, file: u32) -> Option<Place> {
        let first = self.number()?;
        let (dep, line) = if self.peek() == Some('|') {
            self.any();
            (first, self.number()?)
        } else {
            (file, first)
        };
        if self.any()? != ':' {
            return None;
        }
        let col = self.number()?;
        Some(Place { dep, line, col })
    }

    /// The text between `open` and its matching `close` (nesting counted); the
    /// cursor moves past `close`.
    fn bracketed(&mut self, open: char, close: char) -> Option<&'a str> {
        let rest = self.rest();
        if !rest.starts_with(open) {
            return None;
        }
        let mut depth = 0u32;
        for (i, c) in rest.char_indices() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    self.at += i + c.len_utf8();
                    return Some(&rest[open.len_utf8()..i]);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "V \"GNAT Lib v12\"\n\
D a-textio.ads\t\t20220819080952 deada98a ada.text_io%s\n\
D ahven-long_astrings.ads  20201016210538 bd3d4926 ahven.long_astrings%s\n\
D main.adb\t\t20201016210538 262927b8 main%b\n\
G a e\n\
X 1 a-textio.ads\n\
263U14*New_Line 3|137s10 141s7\n\
507U14*Put_Line 3|177s10 270s7\n\
. 276s10\n\
X 2 ahven-long_astrings.ads\n\
23V12*To_Long_String=24:27{12|90R9} 3|367s33\n\
X 3 main.adb\n\
6V13*Double[3|13] 9s7\n\
34U14 Pad 34>19 57b14 62l8 62t11 76s7\n\
34i19 Level{natural} 57b19 59r35\n\
114U14 Wctype 114b<c,gnat_wctype>22 120R5[24|56[23|174]]\n\
623V17*\"=\"{boolean}<10|683p13> 19|52s34[17|19]\n";

    #[test]
    fn dependencies_number_the_files_from_one() {
        let ali = Ali::parse(SAMPLE);
        assert_eq!(ali.deps.len(), 3);
        assert_eq!(ali.dep(1).unwrap().file, "a-textio.ads");
        assert_eq!(ali.dep(1).unwrap().unit.as_deref(), Some("ada.text_io%s"));
        assert_eq!(ali.dep(3).unwrap().file, "main.adb");
        assert!(ali.dep(0).is_none() && ali.dep(4).is_none());
        assert_eq!(ali.skipped_lines, 0);
    }

    #[test]
    fn a_reference_names_its_file_once_and_continuations_keep_it() {
        let ali = Ali::parse(SAMPLE);
        let io = &ali.sections[0];
        assert_eq!((io.dep, io.file.as_str()), (1, "a-textio.ads"));
        let put_line = &io.entities[1];
        assert_eq!(put_line.name, "Put_Line");
        assert!(put_line.library_level);
        let at: Vec<(u32, u32, char, u32)> = put_line
            .refs
            .iter()
            .map(|r| (r.at.dep, r.at.line, r.kind, r.at.col))
            .collect();
        assert_eq!(at, [(3, 177, 's', 10), (3, 270, 's', 7), (3, 276, 's', 10)]);
    }

    #[test]
    fn renamings_and_instances_are_read_from_the_name() {
        let ali = Ali::parse(SAMPLE);
        let rename = &ali.sections[1].entities[0];
        assert_eq!(rename.name, "To_Long_String");
        assert_eq!(
            rename.renames,
            Some(Place {
                dep: 2,
                line: 24,
                col: 27
            })
        );
        let double = &ali.sections[2].entities[0];
        assert_eq!(
            double.instance_of,
            Some(Place {
                dep: 3,
                line: 13,
                col: 0
            })
        );
        assert_eq!(double.refs[0].at.line, 9);
    }

    #[test]
    fn local_entities_imports_dispatching_calls_and_operators() {
        let ali = Ali::parse(SAMPLE);
        let main = &ali.sections[2];
        let pad = &main.entities[1];
        assert!(!pad.library_level);
        assert_eq!(pad.name, "Pad");
        let kinds: String = pad.refs.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, ">blts");
        let wctype = &main.entities[3];
        assert_eq!(wctype.refs[0].import.as_deref(), Some("c,gnat_wctype"));
        assert_eq!(wctype.refs[0].at.col, 22);
        assert_eq!(
            (
                wctype.refs[1].kind,
                wctype.refs[1].at.line,
                wctype.refs[1].at.col
            ),
            ('R', 120, 5)
        );
        let eq = &main.entities[4];
        assert_eq!(eq.name, "\"=\"");
        assert_eq!(
            eq.refs[0].at,
            Place {
                dep: 19,
                line: 52,
                col: 34
            }
        );
    }

    #[test]
    fn a_line_that_does_not_parse_is_counted_not_trusted() {
        let ali = Ali::parse("X 1 a.adb\n12U4*P 13s\n13U4*Q 14s5\n");
        assert_eq!(ali.skipped_lines, 1);
        assert_eq!(ali.sections[0].entities.len(), 1);
        assert_eq!(ali.sections[0].entities[0].name, "Q");
    }
}
