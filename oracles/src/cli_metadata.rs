//! An ECMA-335 reader for what the `mcs-il` reading needs of an assembly: the PE file's
//! CLI header, the metadata streams and tables (II.24), the signatures of methods and
//! types (II.23.2), and each method body's call instructions (II.25.4, III).
//!
//! Every table's row size is computed from the heap sizes and coded-index widths of
//! II.24.2.6, so the tables after the ones read are never needed to find those before.
//! The IL walk knows every opcode's operand size, so it never desynchronises: an
//! unknown opcode is an error, not a guess.

use std::collections::HashMap;

/// A metadata token's table (its top byte).
pub const TYPE_REF: u8 = 0x01;
pub const TYPE_DEF: u8 = 0x02;
pub const METHOD_DEF: u8 = 0x06;
pub const MEMBER_REF: u8 = 0x0A;
pub const TYPE_SPEC: u8 = 0x1B;
pub const METHOD_SPEC: u8 = 0x2B;

const FIELD: usize = 0x04;
const PARAM: usize = 0x08;
const EVENT: usize = 0x14;
const PROPERTY: usize = 0x17;
const MODULE_REF: usize = 0x1A;
const ASSEMBLY_REF: usize = 0x23;
const GENERIC_PARAM: usize = 0x2A;

/// The deepest signature nesting decoded (a bound on the recursion; no C# type nests
/// anywhere near it).
const MAX_SIGNATURE_DEPTH: usize = 64;

/// What reading an assembly can fail on.
pub type Result<T> = std::result::Result<T, String>;

/// A call-like IL instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CallOp {
    Call,
    Callvirt,
    Newobj,
    Ldftn,
    Ldvirtftn,
}

impl CallOp {
    pub fn name(self) -> &'static str {
        match self {
            CallOp::Call => "call",
            CallOp::Callvirt => "callvirt",
            CallOp::Newobj => "newobj",
            CallOp::Ldftn => "ldftn",
            CallOp::Ldvirtftn => "ldvirtftn",
        }
    }
}

/// One call-like instruction of a body: its IL offset and operand token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instruction {
    pub offset: u32,
    pub op: CallOp,
    pub token: u32,
}

#[derive(Debug, Clone)]
pub struct TypeRef {
    /// ResolutionScope as a token (0 when null).
    pub scope: u32,
    pub name: String,
    pub namespace: String,
}

#[derive(Debug, Clone)]
pub struct TypeDef {
    pub flags: u32,
    pub name: String,
    pub namespace: String,
    /// Extends, as a token (0 when none).
    pub extends: u32,
    /// The MethodDef rows (1-based) this type owns.
    pub methods: std::ops::Range<u32>,
}

#[derive(Debug, Clone)]
pub struct MethodDef {
    pub rva: u32,
    pub flags: u16,
    pub name: String,
    pub signature: Vec<u8>,
    /// The TypeDef row (1-based) that owns it.
    pub owner: u32,
}

#[derive(Debug, Clone)]
pub struct MemberRef {
    /// MemberRefParent as a token.
    pub parent: u32,
    pub name: String,
    pub signature: Vec<u8>,
}

/// A method's signature with every type rendered canonically (`System.Int32`,
/// `Ns.Outer/Inner`, `!0`, `!!0`, `T[]`, `&T`, `G<A,B>`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MethodSig {
    pub has_this: bool,
    pub generic_params: u32,
    pub ret: String,
    pub params: Vec<String>,
}

/// The tables and heaps of one assembly that the reading uses.
#[derive(Debug, Default)]
pub struct Assembly {
    pub name: String,
    pub type_refs: Vec<TypeRef>,
    pub type_defs: Vec<TypeDef>,
    pub methods: Vec<MethodDef>,
    pub member_refs: Vec<MemberRef>,
    pub type_specs: Vec<Vec<u8>>,
    /// MethodSpec rows: the generic method (a MethodDefOrRef, as a token).
    pub method_specs: Vec<u32>,
    pub assembly_refs: Vec<String>,
    /// Nested TypeDef row → enclosing TypeDef row.
    pub enclosing: HashMap<u32, u32>,
    /// MethodDef row → MethodSemantics flags (0x1 setter, 0x2 getter, 0x8 adder,
    /// 0x10 remover, …).
    pub semantics: HashMap<u32, u16>,
    file: Vec<u8>,
    sections: Vec<Section>,
}

#[derive(Debug, Clone, Copy)]
struct Section {
    virtual_address: u32,
    virtual_size: u32,
    raw_pointer: u32,
    raw_size: u32,
}

/// A little-endian cursor over bytes, every read bounds-checked.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8], at: usize) -> Self {
        Cursor { bytes, at }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A compressed unsigned integer (II.23.2).
    fn compressed(&mut self) -> Result<u32> {
        let b0 = self.u8()?;
        if b0 & 0x80 == 0 {
            Ok(u32::from(b0))
        } else if b0 & 0xC0 == 0x80 {
            Ok((u32::from(b0 & 0x3F) << 8) | u32::from(self.u8()?))
        } else {
            let rest = self.take(3)?;
            Ok((u32::from(b0 & 0x1F) << 24)
                | (u32::from(rest[0]) << 16)
                | (u32::from(rest[1]) << 8)
                | u32::from(rest[2]))
        }
    }
}

/// The coded indices of II.24.2.6: tag width and the tables the tag selects (`None`
/// for an unused tag).
#[derive(Debug, Clone, Copy)]
enum Coded {
    TypeDefOrRef,
    HasConstant,
    HasCustomAttribute,
    HasFieldMarshal,
    HasDeclSecurity,
    MemberRefParent,
    HasSemantics,
    MethodDefOrRef,
    MemberForwarded,
    Implementation,
    CustomAttributeType,
    ResolutionScope,
    TypeOrMethodDef,
}

impl Coded {
    fn tables(self) -> &'static [Option<u8>] {
        match self {
            Coded::TypeDefOrRef => &[Some(0x02), Some(0x01), Some(0x1B)],
            Coded::HasConstant => &[Some(0x04), Some(0x08), Some(0x17)],
            Coded::HasCustomAttribute => &[
                Some(0x06),
                Some(0x04),
                Some(0x01),
                Some(0x02),
                Some(0x08),
                Some(0x09),
                Some(0x0A),
                Some(0x00),
                Some(0x0E),
                Some(0x17),
                Some(0x14),
                Some(0x11),
                Some(0x1A),
                Some(0x1B),
                Some(0x20),
                Some(0x23),
                Some(0x26),
                Some(0x27),
                Some(0x28),
                Some(0x2A),
                Some(0x2C),
                Some(0x2B),
            ],
            Coded::HasFieldMarshal => &[Some(0x04), Some(0x08)],
            Coded::HasDeclSecurity => &[Some(0x02), Some(0x06), Some(0x20)],
            Coded::MemberRefParent => &[Some(0x02), Some(0x01), Some(0x1A), Some(0x06), Some(0x1B)],
            Coded::HasSemantics => &[Some(0x14), Some(0x17)],
            Coded::MethodDefOrRef => &[Some(0x06), Some(0x0A)],
            Coded::MemberForwarded => &[Some(0x04), Some(0x06)],
            Coded::Implementation => &[Some(0x26), Some(0x23), Some(0x27)],
            Coded::CustomAttributeType => &[None, None, Some(0x06), Some(0x0A), None],
            Coded::ResolutionScope => &[Some(0x00), Some(0x1A), Some(0x23), Some(0x01)],
            Coded::TypeOrMethodDef => &[Some(0x02), Some(0x06)],
        }
    }

    fn tag_bits(self) -> u32 {
        match self.tables().len() {
            0..=2 => 1,
            3..=4 => 2,
            5..=8 => 3,
            9..=16 => 4,
            _ => 5,
        }
    }

    /// The coded value as a token (0 for a null reference or an unused tag).
    fn token(self, value: u32) -> u32 {
        let bits = self.tag_bits();
        let tag = (value & ((1 << bits) - 1)) as usize;
        let row = value >> bits;
        match self.tables().get(tag).copied().flatten() {
            Some(table) if row != 0 => (u32::from(table) << 24) | row,
            _ => 0,
        }
    }
}

/// One column of a table row.
#[derive(Debug, Clone, Copy)]
enum Col {
    U16,
    U32,
    Str,
    Guid,
    Blob,
    Table(usize),
    Coded(Coded),
}

/// The columns of every table of II.22, by table number.
fn schema(table: usize) -> Option<&'static [Col]> {
    use self::Coded as C;
    use Col::{Blob, Guid, Str, Table, U16, U32};
    Some(match table {
        0x00 => &[U16, Str, Guid, Guid, Guid],
        0x01 => &[Col::Coded(C::ResolutionScope), Str, Str],
        0x02 => &[
            U32,
            Str,
            Str,
            Col::Coded(C::TypeDefOrRef),
            Table(FIELD),
            Table(0x06),
        ],
        0x03 => &[Table(FIELD)],
        0x04 => &[U16, Str, Blob],
        0x05 => &[Table(0x06)],
        0x06 => &[U32, U16, U16, Str, Blob, Table(PARAM)],
        0x07 => &[Table(PARAM)],
        0x08 => &[U16, U16, Str],
        0x09 => &[Table(0x02), Col::Coded(C::TypeDefOrRef)],
        0x0A => &[Col::Coded(C::MemberRefParent), Str, Blob],
        0x0B => &[U16, Col::Coded(C::HasConstant), Blob],
        0x0C => &[
            Col::Coded(C::HasCustomAttribute),
            Col::Coded(C::CustomAttributeType),
            Blob,
        ],
        0x0D => &[Col::Coded(C::HasFieldMarshal), Blob],
        0x0E => &[U16, Col::Coded(C::HasDeclSecurity), Blob],
        0x0F => &[U16, U32, Table(0x02)],
        0x10 => &[U32, Table(FIELD)],
        0x11 => &[Blob],
        0x12 => &[Table(0x02), Table(EVENT)],
        0x13 => &[Table(EVENT)],
        0x14 => &[U16, Str, Col::Coded(C::TypeDefOrRef)],
        0x15 => &[Table(0x02), Table(PROPERTY)],
        0x16 => &[Table(PROPERTY)],
        0x17 => &[U16, Str, Blob],
        0x18 => &[U16, Table(0x06), Col::Coded(C::HasSemantics)],
        0x19 => &[
            Table(0x02),
            Col::Coded(C::MethodDefOrRef),
            Col::Coded(C::MethodDefOrRef),
        ],
        0x1A => &[Str],
        0x1B => &[Blob],
        0x1C => &[U16, Col::Coded(C::MemberForwarded), Str, Table(MODULE_REF)],
        0x1D => &[U32, Table(FIELD)],
        0x1E => &[U32, U32],
        0x1F => &[U32],
        0x20 => &[U32, U16, U16, U16, U16, U32, Blob, Str, Str],
        0x21 => &[U32],
        0x22 => &[U32, U32, U32],
        0x23 => &[U16, U16, U16, U16, U32, Blob, Str, Str, Blob],
        0x24 => &[U32, Table(ASSEMBLY_REF)],
        0x25 => &[U32, U32, U32, Table(ASSEMBLY_REF)],
        0x26 => &[U32, Str, Blob],
        0x27 => &[U32, U32, Str, Str, Col::Coded(C::Implementation)],
        0x28 => &[U32, U32, Str, Col::Coded(C::Implementation)],
        0x29 => &[Table(0x02), Table(0x02)],
        0x2A => &[U16, U16, Col::Coded(C::TypeOrMethodDef), Str],
        0x2B => &[Col::Coded(C::MethodDefOrRef), Blob],
        0x2C => &[Table(GENERIC_PARAM), Col::Coded(C::TypeDefOrRef)],
        _ => return None,
    })
}

/// Row counts and index widths of the `#~` stream.
struct Layout {
    rows: [u32; 64],
    wide_string: bool,
    wide_guid: bool,
    wide_blob: bool,
}

impl Layout {
    fn width(&self, col: Col) -> usize {
        match col {
            Col::U16 => 2,
            Col::U32 => 4,
            Col::Str => self.heap(self.wide_string),
            Col::Guid => self.heap(self.wide_guid),
            Col::Blob => self.heap(self.wide_blob),
            Col::Table(t) => self.heap(self.rows[t] > 0xFFFF),
            Col::Coded(c) => {
                let most = c
                    .tables()
                    .iter()
                    .flatten()
                    .map(|&t| self.rows[usize::from(t)])
                    .max()
                    .unwrap_or(0);
                self.heap(most >= (1 << (16 - c.tag_bits())))
            }
        }
    }

    fn heap(&self, wide: bool) -> usize {
        if wide {
            4
        } else {
            2
        }
    }

    fn row_size(&self, table: usize) -> Result<usize> {
        let cols = schema(table).ok_or_else(|| format!("unknown metadata table {table:#x}"))?;
        Ok(cols.iter().map(|&c| self.width(c)).sum())
    }
}

/// The heaps a row's columns point into.
struct Heaps<'a> {
    strings: &'a [u8],
    blobs: &'a [u8],
}

impl Heaps<'_> {
    fn string(&self, at: u32) -> String {
        let start = (at as usize).min(self.strings.len());
        let rest = &self.strings[start..];
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        String::from_utf8_lossy(&rest[..end]).into_owned()
    }

    fn blob(&self, at: u32) -> Result<Vec<u8>> {
        let mut c = Cursor::new(self.blobs, at as usize);
        let len = c.compressed()? as usize;
        Ok(c.take(len)?.to_vec())
    }
}

/// One decoded row: every column as a number (indices and coded indices raw).
fn read_row(c: &mut Cursor<'_>, layout: &Layout, table: usize) -> Result<Vec<u32>> {
    let cols = schema(table).ok_or_else(|| format!("unknown metadata table {table:#x}"))?;
    cols.iter()
        .map(|&col| match layout.width(col) {
            2 => c.u16().map(u32::from),
            _ => c.u32(),
        })
        .collect()
}

impl Assembly {
    /// Reads an assembly file.
    pub fn read(bytes: Vec<u8>) -> Result<Assembly> {
        let mut assembly = Assembly {
            file: bytes,
            ..Assembly::default()
        };
        let file = std::mem::take(&mut assembly.file);
        let result = assembly.parse(&file);
        assembly.file = file;
        result.map(|()| assembly)
    }

    fn parse(&mut self, file: &[u8]) -> Result<()> {
        let mut c = Cursor::new(file, 0x3C);
        let pe = c.u32()? as usize;
        let mut c = Cursor::new(file, pe);
        if c.take(4)? != b"PE\0\0" {
            return Err("not a PE file".into());
        }
        let _machine = c.u16()?;
        let sections = c.u16()?;
        c.take(12)?;
        let optional_size = c.u16()? as usize;
        let _characteristics = c.u16()?;
        let optional = c.at;
        let magic = Cursor::new(file, optional).u16()?;
        let directories = match magic {
            0x10B => optional + 96,
            0x20B => optional + 112,
            _ => return Err(format!("unknown optional header magic {magic:#x}")),
        };
        let mut d = Cursor::new(file, directories + 14 * 8);
        let cli_rva = d.u32()?;
        let mut s = Cursor::new(file, optional + optional_size);
        for _ in 0..sections {
            let header = s.take(40)?;
            let word = |i: usize| {
                u32::from_le_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]])
            };
            self.sections.push(Section {
                virtual_size: word(8),
                virtual_address: word(12),
                raw_size: word(16),
                raw_pointer: word(20),
            });
        }
        let cli = self.offset_of(cli_rva)?;
        let mut h = Cursor::new(file, cli + 8);
        let metadata_rva = h.u32()?;
        let metadata = self.offset_of(metadata_rva)?;
        let mut m = Cursor::new(file, metadata);
        if m.u32()? != 0x424A_5342 {
            return Err("no metadata signature".into());
        }
        m.take(8)?;
        let version_len = m.u32()? as usize;
        m.take(version_len)?;
        let _flags = m.u16()?;
        let streams = m.u16()?;
        let mut found: HashMap<String, &[u8]> = HashMap::new();
        for _ in 0..streams {
            let offset = m.u32()? as usize;
            let size = m.u32()? as usize;
            let start = m.at;
            let mut name = Vec::new();
            loop {
                let b = m.u8()?;
                if b == 0 {
                    break;
                }
                name.push(b);
            }
            let used = m.at - start;
            m.take((4 - used % 4) % 4)?;
            let stream = Cursor::new(file, metadata + offset).take(size)?;
            found.insert(String::from_utf8_lossy(&name).into_owned(), stream);
        }
        let tables = found
            .get("#~")
            .copied()
            .ok_or("no #~ stream (uncompressed #- tables are not read)")?;
        let heaps = Heaps {
            strings: found.get("#Strings").copied().unwrap_or(&[]),
            blobs: found.get("#Blob").copied().unwrap_or(&[]),
        };
        self.read_tables(tables, &heaps)
    }

    /// The file offset of an RVA.
    fn offset_of(&self, rva: u32) -> Result<usize> {
        self.sections
            .iter()
            .find(|s| {
                rva >= s.virtual_address && rva < s.virtual_address + s.virtual_size.max(s.raw_size)
            })
            .map(|s| (rva - s.virtual_address + s.raw_pointer) as usize)
            .ok_or_else(|| format!("RVA {rva:#x} is in no section"))
    }

    fn read_tables(&mut self, stream: &[u8], heaps: &Heaps<'_>) -> Result<()> {
        let mut c = Cursor::new(stream, 4);
        c.take(2)?;
        let heap_sizes = c.u8()?;
        c.u8()?;
        let valid = u64::from(c.u32()?) | (u64::from(c.u32()?) << 32);
        c.take(8)?;
        let mut layout = Layout {
            rows: [0; 64],
            wide_string: heap_sizes & 1 != 0,
            wide_guid: heap_sizes & 2 != 0,
            wide_blob: heap_sizes & 4 != 0,
        };
        for t in 0..64 {
            if valid & (1 << t) != 0 {
                layout.rows[t] = c.u32()?;
            }
        }
        if heap_sizes & 0x20 != 0 {
            c.u32()?;
        }
        let mut rows: HashMap<usize, Vec<Vec<u32>>> = HashMap::new();
        for t in 0..64 {
            if layout.rows[t] == 0 {
                continue;
            }
            let size = layout.row_size(t)?;
            let wanted = matches!(
                t,
                0x01 | 0x02 | 0x06 | 0x0A | 0x18 | 0x1B | 0x20 | 0x23 | 0x29 | 0x2B
            );
            if !wanted {
                c.take(size * layout.rows[t] as usize)?;
                continue;
            }
            let mut table = Vec::with_capacity(layout.rows[t] as usize);
            for _ in 0..layout.rows[t] {
                table.push(read_row(&mut c, &layout, t)?);
            }
            rows.insert(t, table);
        }
        let get = |t: usize| rows.get(&t).map(Vec::as_slice).unwrap_or(&[]);
        self.type_refs = get(0x01)
            .iter()
            .map(|r| TypeRef {
                scope: Coded::ResolutionScope.token(r[0]),
                name: heaps.string(r[1]),
                namespace: heaps.string(r[2]),
            })
            .collect();
        let method_count = layout.rows[0x06];
        let type_rows = get(0x02);
        for (i, r) in type_rows.iter().enumerate() {
            let end = type_rows
                .get(i + 1)
                .map_or(method_count + 1, |next| next[5]);
            self.type_defs.push(TypeDef {
                flags: r[0],
                name: heaps.string(r[1]),
                namespace: heaps.string(r[2]),
                extends: Coded::TypeDefOrRef.token(r[3]),
                methods: r[5]..end.max(r[5]),
            });
        }
        let mut owner = vec![0u32; method_count as usize + 1];
        for (i, t) in self.type_defs.iter().enumerate() {
            for m in t.methods.clone() {
                if let Some(o) = owner.get_mut(m as usize) {
                    *o = i as u32 + 1;
                }
            }
        }
        for (i, r) in get(0x06).iter().enumerate() {
            self.methods.push(MethodDef {
                rva: r[0],
                flags: r[2] as u16,
                name: heaps.string(r[3]),
                signature: heaps.blob(r[4])?,
                owner: owner[i + 1],
            });
        }
        for r in get(0x0A) {
            self.member_refs.push(MemberRef {
                parent: Coded::MemberRefParent.token(r[0]),
                name: heaps.string(r[1]),
                signature: heaps.blob(r[2])?,
            });
        }
        for r in get(0x18) {
            self.semantics.insert(r[1], r[0] as u16);
        }
        for r in get(0x1B) {
            self.type_specs.push(heaps.blob(r[0])?);
        }
        if let Some(r) = get(0x20).first() {
            self.name = heaps.string(r[7]);
        }
        self.assembly_refs = get(0x23).iter().map(|r| heaps.string(r[6])).collect();
        for r in get(0x29) {
            self.enclosing.insert(r[0], r[1]);
        }
        self.method_specs = get(0x2B)
            .iter()
            .map(|r| Coded::MethodDefOrRef.token(r[0]))
            .collect();
        Ok(())
    }

    /// A TypeDef's IL full name: `Ns.Outer`1/Inner`.
    pub fn type_def_name(&self, row: u32) -> String {
        let mut parts = Vec::new();
        let mut at = row;
        let mut namespace = String::new();
        for _ in 0..MAX_SIGNATURE_DEPTH {
            let Some(t) = self.type_defs.get((at as usize).wrapping_sub(1)) else {
                break;
            };
            parts.push(t.name.clone());
            namespace = t.namespace.clone();
            match self.enclosing.get(&at) {
                Some(&outer) => at = outer,
                None => break,
            }
        }
        parts.reverse();
        qualified(&namespace, &parts.join("/"))
    }

    /// A TypeRef's IL full name and the assembly it is in (`None`: this module).
    pub fn type_ref_name(&self, row: u32) -> (String, Option<String>) {
        let mut parts = Vec::new();
        let mut at = row;
        let mut namespace = String::new();
        let mut assembly = None;
        for _ in 0..MAX_SIGNATURE_DEPTH {
            let Some(t) = self.type_refs.get((at as usize).wrapping_sub(1)) else {
                break;
            };
            parts.push(t.name.clone());
            namespace = t.namespace.clone();
            let (table, scope_row) = split(t.scope);
            match table {
                TYPE_REF => at = scope_row,
                0x23 => {
                    assembly = self.assembly_refs.get(scope_row as usize - 1).cloned();
                    break;
                }
                _ => break,
            }
        }
        parts.reverse();
        (qualified(&namespace, &parts.join("/")), assembly)
    }

    /// Any TypeDefOrRef/TypeSpec token's canonical name.
    pub fn type_name(&self, token: u32) -> String {
        self.type_name_at(token, 0)
    }

    fn type_name_at(&self, token: u32, depth: usize) -> String {
        let (table, row) = split(token);
        match table {
            TYPE_DEF => self.type_def_name(row),
            TYPE_REF => self.type_ref_name(row).0,
            TYPE_SPEC => self
                .type_specs
                .get(row as usize - 1)
                .and_then(|b| self.decode_type(&mut Cursor::new(b, 0), depth + 1).ok())
                .unwrap_or_else(|| "?".into()),
            _ => "?".into(),
        }
    }

    /// The TypeDef/TypeRef a type token names, through a generic instantiation.
    pub fn generic_definition(&self, token: u32) -> u32 {
        let (table, row) = split(token);
        if table != TYPE_SPEC {
            return token;
        }
        let Some(blob) = self.type_specs.get(row as usize - 1) else {
            return 0;
        };
        let mut c = Cursor::new(blob, 0);
        match c.u8() {
            Ok(0x15) => {
                let _kind = c.u8();
                c.compressed().map(type_def_or_ref).unwrap_or(0)
            }
            Ok(0x11 | 0x12) => c.compressed().map(type_def_or_ref).unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether a type token's blob is an array (a multi-dimensional array's methods).
    pub fn is_array_spec(&self, token: u32) -> bool {
        let (table, row) = split(token);
        table == TYPE_SPEC
            && self
                .type_specs
                .get(row as usize - 1)
                .is_some_and(|b| matches!(b.first(), Some(0x14 | 0x1D)))
    }

    /// A method signature blob, decoded.
    pub fn method_sig(&self, blob: &[u8]) -> Result<MethodSig> {
        let mut c = Cursor::new(blob, 0);
        let conv = c.u8()?;
        let generic_params = if conv & 0x10 != 0 { c.compressed()? } else { 0 };
        let count = c.compressed()?;
        let ret = self.decode_type(&mut c, 0)?;
        let mut params = Vec::new();
        for _ in 0..count {
            if c.bytes.get(c.at) == Some(&0x41) {
                c.u8()?;
            }
            params.push(self.decode_type(&mut c, 0)?);
        }
        Ok(MethodSig {
            has_this: conv & 0x20 != 0,
            generic_params,
            ret,
            params,
        })
    }

    fn decode_type(&self, c: &mut Cursor<'_>, depth: usize) -> Result<String> {
        if depth > MAX_SIGNATURE_DEPTH {
            return Err("signature nests too deep".into());
        }
        let b = c.u8()?;
        Ok(match b {
            0x01 => "System.Void".into(),
            0x02 => "System.Boolean".into(),
            0x03 => "System.Char".into(),
            0x04 => "System.SByte".into(),
            0x05 => "System.Byte".into(),
            0x06 => "System.Int16".into(),
            0x07 => "System.UInt16".into(),
            0x08 => "System.Int32".into(),
            0x09 => "System.UInt32".into(),
            0x0A => "System.Int64".into(),
            0x0B => "System.UInt64".into(),
            0x0C => "System.Single".into(),
            0x0D => "System.Double".into(),
            0x0E => "System.String".into(),
            0x0F => format!("{}*", self.decode_type(c, depth + 1)?),
            0x10 => format!("&{}", self.decode_type(c, depth + 1)?),
            0x11 | 0x12 => {
                let t = type_def_or_ref(c.compressed()?);
                self.type_name_at(t, depth + 1)
            }
            0x13 => format!("!{}", c.compressed()?),
            0x1E => format!("!!{}", c.compressed()?),
            0x14 => {
                let element = self.decode_type(c, depth + 1)?;
                let rank = c.compressed()?;
                let sizes = c.compressed()?;
                for _ in 0..sizes {
                    c.compressed()?;
                }
                let bounds = c.compressed()?;
                for _ in 0..bounds {
                    c.compressed()?;
                }
                format!("{element}[{}]", ",".repeat(rank.saturating_sub(1) as usize))
            }
            0x15 => {
                let _kind = c.u8()?;
                let t = type_def_or_ref(c.compressed()?);
                let base = self.type_name_at(t, depth + 1);
                let n = c.compressed()?;
                let mut args = Vec::new();
                for _ in 0..n {
                    args.push(self.decode_type(c, depth + 1)?);
                }
                format!("{base}<{}>", args.join(","))
            }
            0x16 => "System.TypedReference".into(),
            0x18 => "System.IntPtr".into(),
            0x19 => "System.UIntPtr".into(),
            0x1B => {
                // A function pointer: its signature, skipped type by type.
                let conv = c.u8()?;
                if conv & 0x10 != 0 {
                    c.compressed()?;
                }
                let n = c.compressed()?;
                for _ in 0..=n {
                    self.decode_type(c, depth + 1)?;
                }
                "method*".into()
            }
            0x1C => "System.Object".into(),
            0x1D => format!("{}[]", self.decode_type(c, depth + 1)?),
            0x1F | 0x20 => {
                c.compressed()?;
                self.decode_type(c, depth + 1)?
            }
            0x45 => self.decode_type(c, depth + 1)?,
            other => return Err(format!("unknown element type {other:#x}")),
        })
    }

    /// The call-like instructions of a MethodDef's body (none when it has no body).
    pub fn calls(&self, method: &MethodDef) -> Result<Vec<Instruction>> {
        if method.rva == 0 {
            return Ok(Vec::new());
        }
        let at = self.offset_of(method.rva)?;
        let mut c = Cursor::new(&self.file, at);
        let first = c.u8()?;
        let code = match first & 3 {
            2 => c.take(usize::from(first >> 2))?,
            3 => {
                let _flags = c.u8()?;
                let _max_stack = c.u16()?;
                let size = c.u32()? as usize;
                let _locals = c.u32()?;
                c.take(size)?
            }
            _ => return Err(format!("method {}: bad body header", method.name)),
        };
        walk_il(code)
    }
}

/// Every call-like instruction of an IL stream, by a walk over every opcode.
pub fn walk_il(code: &[u8]) -> Result<Vec<Instruction>> {
    let mut c = Cursor::new(code, 0);
    let mut found = Vec::new();
    while c.at < code.len() {
        let offset = c.at as u32;
        let b = c.u8()?;
        if b == 0xFE {
            let b2 = c.u8()?;
            let size = two_byte_operand(b2)
                .ok_or_else(|| format!("unknown opcode 0xFE {b2:#04x} at IL_{offset:04x}"))?;
            let op = match b2 {
                0x06 => Some(CallOp::Ldftn),
                0x07 => Some(CallOp::Ldvirtftn),
                _ => None,
            };
            let operand = c.take(size)?;
            if let Some(op) = op {
                let token = u32::from_le_bytes([operand[0], operand[1], operand[2], operand[3]]);
                found.push(Instruction { offset, op, token });
            }
            continue;
        }
        if b == 0x45 {
            let n = c.u32()? as usize;
            c.take(n.checked_mul(4).ok_or("switch too large")?)?;
            continue;
        }
        let size = one_byte_operand(b)
            .ok_or_else(|| format!("unknown opcode {b:#04x} at IL_{offset:04x}"))?;
        let operand = c.take(size)?;
        let op = match b {
            0x28 => Some(CallOp::Call),
            0x6F => Some(CallOp::Callvirt),
            0x73 => Some(CallOp::Newobj),
            _ => None,
        };
        if let Some(op) = op {
            let token = u32::from_le_bytes([operand[0], operand[1], operand[2], operand[3]]);
            found.push(Instruction { offset, op, token });
        }
    }
    Ok(found)
}

/// The operand size of a one-byte opcode (Partition III), `None` for an unused code.
fn one_byte_operand(b: u8) -> Option<usize> {
    Some(match b {
        0x00..=0x0D => 0,
        0x0E..=0x13 => 1,
        0x14..=0x1E => 0,
        0x1F => 1,
        0x20 => 4,
        0x21 => 8,
        0x22 => 4,
        0x23 => 8,
        0x25 | 0x26 => 0,
        0x27..=0x29 => 4,
        0x2A => 0,
        0x2B..=0x37 => 1,
        0x38..=0x44 => 4,
        0x46..=0x6E => 0,
        0x6F..=0x75 => 4,
        0x76 => 0,
        0x79 => 4,
        0x7A => 0,
        0x7B..=0x81 => 4,
        0x82..=0x8B => 0,
        0x8C | 0x8D => 4,
        0x8E => 0,
        0x8F => 4,
        0x90..=0xA2 => 0,
        0xA3..=0xA5 => 4,
        0xB3..=0xBA => 0,
        0xC2 => 4,
        0xC3 => 0,
        0xC6 => 4,
        0xD0 => 4,
        0xD1..=0xDC => 0,
        0xDD => 4,
        0xDE => 1,
        0xDF | 0xE0 => 0,
        _ => return None,
    })
}

/// The operand size of a `0xFE`-prefixed opcode.
fn two_byte_operand(b: u8) -> Option<usize> {
    Some(match b {
        0x00..=0x05 => 0,
        0x06 | 0x07 => 4,
        0x09..=0x0E => 2,
        0x0F | 0x11 => 0,
        0x12 => 1,
        0x13 | 0x14 => 0,
        0x15 | 0x16 => 4,
        0x17 | 0x18 => 0,
        0x19 => 1,
        0x1A => 0,
        0x1C => 4,
        0x1D | 0x1E => 0,
        _ => return None,
    })
}

/// A TypeDefOrRefEncoded value (II.23.2.8) as a token.
fn type_def_or_ref(value: u32) -> u32 {
    let table = match value & 3 {
        0 => TYPE_DEF,
        1 => TYPE_REF,
        _ => TYPE_SPEC,
    };
    (u32::from(table) << 24) | (value >> 2)
}

/// A token's table and row.
pub fn split(token: u32) -> (u8, u32) {
    ((token >> 24) as u8, token & 0x00FF_FFFF)
}

fn qualified(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else {
        format!("{namespace}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_il_walk_steps_over_every_operand() {
        // ldarg.0; ldc.i4.s 5; call 0x0A000001; switch (2) [0,0]; ldftn 0x06000002;
        // newobj 0x06000003; ldc.i8 …; callvirt 0x0A000004; ret
        let mut code = vec![0x02, 0x1F, 5, 0x28, 1, 0, 0, 0x0A, 0x45, 2, 0, 0, 0];
        code.extend([0; 8]);
        code.extend([0xFE, 0x06, 2, 0, 0, 0x06, 0x73, 3, 0, 0, 0x06, 0x21]);
        code.extend([0; 8]);
        code.extend([0x6F, 4, 0, 0, 0x0A, 0x2A]);
        let calls = walk_il(&code).unwrap();
        let brief: Vec<(u32, &str, u32)> = calls
            .iter()
            .map(|i| (i.offset, i.op.name(), i.token))
            .collect();
        assert_eq!(
            brief,
            vec![
                (3, "call", 0x0A00_0001),
                (21, "ldftn", 0x0600_0002),
                (27, "newobj", 0x0600_0003),
                (41, "callvirt", 0x0A00_0004),
            ]
        );
        assert!(walk_il(&[0x24]).is_err(), "an unused opcode is an error");
        assert!(
            walk_il(&[0x28, 1]).is_err(),
            "a truncated operand is an error"
        );
    }

    #[test]
    fn compressed_integers_and_coded_indices() {
        for (bytes, value) in [
            (&[0x03][..], 3),
            (&[0x80, 0x80][..], 0x80),
            (&[0xC0, 0x00, 0x40, 0x00][..], 0x4000),
        ] {
            assert_eq!(Cursor::new(bytes, 0).compressed().unwrap(), value);
        }
        assert_eq!(Coded::MemberRefParent.token((7 << 3) | 1), 0x0100_0007);
        assert_eq!(Coded::HasCustomAttribute.tag_bits(), 5);
        assert_eq!(type_def_or_ref((9 << 2) | 2), 0x1B00_0009);
    }
}
