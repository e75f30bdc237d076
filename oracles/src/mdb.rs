//! Mono's symbol file (`.mdb`, format 50.0), as mcs `-debug` writes it: the header,
//! the offset table, the source table and, per method token, the line-number table — a
//! DWARF-like opcode program of (file, line, IL offset, hidden) entries followed, when
//! the method's flags say so, by one column per entry and one end position per entry.
//!
//! The layout is Mono's `MonoSymbolFile.cs` and `MonoSymbolTable.cs`
//! (Mono.CompilerServices.SymbolWriter); integers are little-endian, the "LEB128"
//! values .NET's 7-bit encoded integers (unsigned groups of 7 bits, read into an i32
//! so that a negative line step wraps as it was written).

use std::collections::HashMap;

/// The file's magic number and the one format version read.
const MAGIC: u64 = 0x45e8_2623_fd7f_a614;
const MAJOR_VERSION: i32 = 50;

/// MethodEntry flags: the line table is followed by columns, then by end positions.
const COLUMNS_INCLUDED: i32 = 2;
const END_INCLUDED: i32 = 4;

/// The end-position value that means "none".
const NO_END: i32 = 0x00FF_FFFF;

/// The most line entries one method may have (a bound on a corrupt program).
const MAX_ENTRIES: usize = 1 << 22;

/// One line-table entry: where the IL from `offset` on comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineEntry {
    pub offset: u32,
    /// The source-table index (1-based).
    pub file: u32,
    pub line: i32,
    /// 1-based UTF-16 column; `None` when the table has no columns.
    pub column: Option<i32>,
    pub hidden: bool,
}

/// A symbol file: the sources by index and each method's line table by token.
#[derive(Debug, Default)]
pub struct SymbolFile {
    pub sources: HashMap<u32, String>,
    pub methods: HashMap<u32, Vec<LineEntry>>,
}

pub type Result<T> = std::result::Result<T, String>;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn at(bytes: &'a [u8], at: usize) -> Self {
        Reader { bytes, at }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the symbol file is truncated at {}", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn i32(&mut self) -> Result<i32> {
        let b = self.take(4)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A 7-bit encoded integer (at most 5 groups).
    fn leb(&mut self) -> Result<i32> {
        let mut value: u32 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.u8()?;
            value |= u32::from(b & 0x7F).wrapping_shl(shift);
            if b & 0x80 == 0 {
                return Ok(value as i32);
            }
        }
        Err("a 7-bit integer longer than 5 bytes".into())
    }

    /// A .NET BinaryWriter string: its UTF-8 length as a 7-bit integer, then bytes.
    fn string(&mut self) -> Result<String> {
        let len = usize::try_from(self.leb()?).map_err(|_| "negative string length")?;
        Ok(String::from_utf8_lossy(self.take(len)?).into_owned())
    }
}

/// The program's parameters, from the offset table.
#[derive(Debug, Clone, Copy)]
pub struct LineProgram {
    pub line_base: i32,
    pub line_range: i32,
    pub opcode_base: i32,
}

impl SymbolFile {
    pub fn read(bytes: &[u8]) -> Result<SymbolFile> {
        let mut r = Reader::at(bytes, 0);
        let magic = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        if magic != MAGIC {
            return Err("not a Mono symbol file".into());
        }
        let major = r.i32()?;
        let _minor = r.i32()?;
        if major != MAJOR_VERSION {
            return Err(format!(
                "symbol file version {major}, only {MAJOR_VERSION} is read"
            ));
        }
        r.take(16)?;
        let mut table = [0i32; 20];
        for slot in &mut table {
            *slot = r.i32()?;
        }
        let [_, _, _, _, _, _, source_count, source_offset, _, method_count, method_offset, ..] =
            table;
        let program = LineProgram {
            line_base: table[16],
            line_range: table[17],
            opcode_base: table[18],
        };
        if program.line_range <= 0 || !(1..=255).contains(&program.opcode_base) {
            return Err("bad line-table parameters".into());
        }
        let mut file = SymbolFile::default();
        let count = |n: i32| usize::try_from(n).map_err(|_| "negative count".to_string());
        let mut s = Reader::at(bytes, count(source_offset)?);
        for _ in 0..count(source_count)? {
            let index = r_u32(&mut s)?;
            let data = count(s.i32()?)?;
            let name = Reader::at(bytes, data).string()?;
            file.sources.insert(index, name);
        }
        let mut m = Reader::at(bytes, count(method_offset)?);
        for _ in 0..count(method_count)? {
            let token = r_u32(&mut m)?;
            let data = count(m.i32()?)?;
            let lines = count(m.i32()?)?;
            let mut d = Reader::at(bytes, data);
            for _ in 0..6 {
                d.leb()?;
            }
            let flags = d.leb()?;
            let entries = if lines == 0 {
                Vec::new()
            } else {
                read_line_table(
                    &mut Reader::at(bytes, lines),
                    program,
                    flags & COLUMNS_INCLUDED != 0,
                    flags & END_INCLUDED != 0,
                )?
            };
            file.methods.insert(token, entries);
        }
        Ok(file)
    }
}

fn r_u32(r: &mut Reader<'_>) -> Result<u32> {
    r.i32().map(|v| v as u32)
}

/// Runs one line-number program (`LineNumberTable.DoRead`), then reads its columns
/// and ends when present.
fn read_line_table(
    r: &mut Reader<'_>,
    program: LineProgram,
    columns: bool,
    ends: bool,
) -> Result<Vec<LineEntry>> {
    let max_address_increment = (255 - program.opcode_base) / program.line_range;
    let mut entries = Vec::new();
    let (mut line, mut offset, mut file, mut hidden, mut modified) =
        (1i32, 0i32, 1u32, false, false);
    let push = |entries: &mut Vec<LineEntry>, line, offset: i32, file, hidden| {
        entries.push(LineEntry {
            offset: offset.max(0) as u32,
            file,
            line,
            column: None,
            hidden,
        });
    };
    loop {
        if entries.len() > MAX_ENTRIES {
            return Err("a line table without an end".into());
        }
        let opcode = r.u8()?;
        if opcode == 0 {
            let size = usize::from(r.u8()?);
            let end = r.at + size;
            let extended = r.u8()?;
            match extended {
                1 => break,
                0x40 => {
                    hidden = !hidden;
                    modified = true;
                }
                0x41..=0x7F => {}
                other => return Err(format!("unknown extended line opcode {other:#x}")),
            }
            r.at = end;
            continue;
        }
        if i32::from(opcode) < program.opcode_base {
            match opcode {
                1 => {
                    push(&mut entries, line, offset, file, hidden);
                    modified = false;
                }
                2 => {
                    offset = offset.wrapping_add(r.leb()?);
                    modified = true;
                }
                3 => {
                    line = line.wrapping_add(r.leb()?);
                    modified = true;
                }
                4 => {
                    file = r.leb()? as u32;
                    modified = true;
                }
                8 => {
                    offset += max_address_increment;
                    modified = true;
                }
                other => return Err(format!("unknown line opcode {other:#x}")),
            }
            continue;
        }
        let special = i32::from(opcode) - program.opcode_base;
        offset += special / program.line_range;
        line += program.line_base + special % program.line_range;
        push(&mut entries, line, offset, file, hidden);
        modified = false;
    }
    if modified {
        push(&mut entries, line, offset, file, hidden);
    }
    if columns {
        for e in entries.iter_mut().filter(|e| e.line >= 0) {
            e.column = Some(r.leb()?);
        }
    }
    if ends {
        for _ in 0..entries.len() {
            if r.leb()? != NO_END {
                r.leb()?;
            }
        }
    }
    Ok(entries)
}

/// The line Mono writes for a hidden point in some tables (`0xfeefee`).
const HIDDEN_LINE: i32 = 0x00FE_EFEE;

/// Where the IL at `offset` comes from: the last non-hidden entry at or before it
/// (`entries` in offset order), and whether the nearest entry before it is a hidden
/// one (code the compiler wrote there, such as a `foreach`'s MoveNext). `None` when no
/// non-hidden entry precedes it.
pub fn entry_at(entries: &[LineEntry], offset: u32) -> Option<(&LineEntry, bool)> {
    let upto = entries.partition_point(|e| e.offset <= offset);
    let before = &entries[..upto];
    let is_hidden = |e: &LineEntry| e.hidden || e.line == HIDDEN_LINE;
    let nearest_hidden = before.last().is_some_and(is_hidden);
    before
        .iter()
        .rev()
        .find(|e| !is_hidden(e))
        .map(|e| (e, nearest_hidden))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> LineProgram {
        LineProgram {
            line_base: -1,
            line_range: 8,
            opcode_base: 9,
        }
    }

    #[test]
    fn a_line_program_with_columns_and_ends_decodes() {
        // line 1→5 (advance_line 4, copy) at offset 0; special opcode: line +1, offset
        // +2 (9 + (1 - -1) + 8*2 = 27); hidden on, advance_pc 3, copy; hidden off,
        // advance_line -2 (5-byte group), copy; end. Then four columns; four ends.
        let mut bytes = vec![3, 4, 1, 27, 0, 1, 0x40, 2, 3, 1, 0, 1, 0x40];
        bytes.extend([3, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 1, 0, 1, 1]);
        bytes.extend([9, 13, 1, 7]);
        bytes.extend([0, 20, 0xFF, 0xFF, 0xFF, 0x07, 0xFF, 0xFF, 0xFF, 0x07, 1, 2]);
        let mut r = Reader::at(&bytes, 0);
        let entries = read_line_table(&mut r, program(), true, true).unwrap();
        assert_eq!(r.at, bytes.len(), "columns and ends are consumed");
        let brief: Vec<(u32, i32, Option<i32>, bool)> = entries
            .iter()
            .map(|e| (e.offset, e.line, e.column, e.hidden))
            .collect();
        assert_eq!(
            brief,
            vec![
                (0, 5, Some(9), false),
                (2, 6, Some(13), false),
                (5, 6, Some(1), true),
                (5, 4, Some(7), false),
            ]
        );
        let at =
            |entries: &[LineEntry], offset| entry_at(entries, offset).map(|(e, h)| (e.line, h));
        assert_eq!(at(&entries, 1), Some((5, false)));
        assert_eq!(at(&entries, 4), Some((6, false)));
        assert_eq!(at(&entries, 9), Some((4, false)));
        assert_eq!(
            at(&entries[..3], 6),
            Some((6, true)),
            "after a hidden entry"
        );
    }
}
