//! What the kotlinc oracle's compiler plugin (`oracles/kotlin/CallTruth.kt`) writes:
//! one JSON object per IR call, construction, delegating constructor call or callable
//! reference, read after FIR2IR and before any lowering.
//!
//! Offsets are the compiler's: UTF-16 code units of the file's text with its line
//! breaks read as `\n` (CRLF files exist in the corpora); `line` beside an offset is
//! the compiler's own 1-based line of it, which the adapter checks its own reading
//! against. A declaration outside the module's files has no `file`.

use serde::Deserialize;

/// The plugin's output format this adapter reads (the plugin's `PLUGIN_VERSION`).
pub const PLUGIN_FORMAT: &str = "1";

/// One access the plugin saw.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Access {
    pub kind: AccessKind,
    /// The file as the compiler names it (the path it was given).
    pub file: String,
    pub start: i64,
    pub end: i64,
    /// The compiler's 1-based line of `start`; absent when `start` is negative.
    #[serde(default)]
    pub line: Option<u32>,
    /// `IrStatementOrigin` as the compiler prints it (`GET_PROPERTY`, `PLUS`,
    /// `COMPONENT_N(index=1)`, `FOR_LOOP_ITERATOR`, `INVOKE`, …); absent for a call the
    /// source writes as a call.
    #[serde(default)]
    pub origin: Option<String>,
    /// A `super.m()` call.
    #[serde(default, rename = "super")]
    pub super_qualified: bool,
    /// Inside the generated body of a callable reference (`::f`): the reference's own
    /// call, not one the source writes.
    #[serde(default)]
    pub in_reference: bool,
    pub callee: Callee,
    /// The declarations around the access, innermost first.
    #[serde(default)]
    pub context: Vec<Declaration>,
}

/// What kind of IR element the access is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    /// `IrCall`.
    Call,
    /// `IrConstructorCall`.
    New,
    /// `IrDelegatingConstructorCall`: `: Base(…)`, `this(…)`, `super(…)`, or the one the
    /// compiler inserts.
    Delegating,
    /// `IrEnumConstructorCall`: an enum entry's construction, or an enum class's call of
    /// `Enum`'s constructor.
    EnumNew,
    /// `::f` (`IrFunctionReference` or `IrRichFunctionReference`).
    Reference,
    /// `::p`, or the reference a delegated property hands its delegate.
    PropertyReference,
}

/// The function (or property, for a property reference) the compiler bound.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Callee {
    /// `map`, `<init>` for a constructor, `<get-x>` for an accessor.
    pub name: String,
    /// `function`, `constructor` or `property`.
    pub decl: String,
    /// Fully qualified (`kotlin.collections.map`, `com.beust.klaxon.JsonObject.<init>`).
    pub fq: String,
    /// `IrDeclarationOrigin` (`DEFINED`, `FAKE_OVERRIDE`, `GENERATED_DATA_CLASS_MEMBER`,
    /// `IR_EXTERNAL_DECLARATION_STUB`, …).
    #[serde(default)]
    pub origin: Option<String>,
    #[serde(default)]
    pub fake_override: bool,
    #[serde(default)]
    pub operator: bool,
    #[serde(default)]
    pub infix: bool,
    /// A primary constructor.
    #[serde(default)]
    pub primary: bool,
    /// The property an accessor belongs to.
    #[serde(default)]
    pub property: Option<String>,
    /// The class declaring the callee (the class a constructor constructs).
    #[serde(default)]
    pub owner: Option<Owner>,
    /// What runs: the callee itself, or the real declaration a fake override stands
    /// for.
    #[serde(default)]
    pub declarations: Vec<Declaration>,
    /// The `expect` declarations the bound `actual` was written against.
    #[serde(default)]
    pub expects: Vec<Declaration>,
}

/// A class, as a callee's owner.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Owner {
    pub name: String,
    pub fq: String,
    /// `ClassKind`: `CLASS`, `INTERFACE`, `OBJECT`, `ENUM_CLASS`, …
    pub kind: String,
    #[serde(default)]
    pub companion: bool,
    #[serde(default)]
    pub data: bool,
}

/// A declaration: a callee's, or one around an access.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declaration {
    /// `function`, `lambda`, `accessor`, `constructor`, `class`, `property`, `field`,
    /// `initializer`, `other`.
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    pub origin: String,
    #[serde(default)]
    pub fq: Option<String>,
    #[serde(default)]
    pub primary: bool,
    /// Present when the declaration is in a file of the module, with its offsets.
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub start: Option<i64>,
    #[serde(default)]
    pub end: Option<i64>,
    #[serde(default)]
    pub line: Option<u32>,
    /// An accessor's property.
    #[serde(default)]
    pub property: Option<Box<Declaration>>,
    /// The class a member belongs to, when it is in a file of the module.
    #[serde(default)]
    pub parent_class: Option<Box<Declaration>>,
}

impl Declaration {
    /// The declaration's file and offsets, when it is in a file of the module.
    pub fn span(&self) -> Option<(&str, i64, i64)> {
        match (&self.file, self.start, self.end) {
            (Some(f), Some(s), Some(e)) if s >= 0 && e >= s => Some((f.as_str(), s, e)),
            _ => None,
        }
    }
}

/// The plugin's first line.
#[derive(Debug, Deserialize)]
struct Header {
    kind: String,
    version: String,
}

/// Reads the plugin's lines: the header, then one access a line.
pub fn read_accesses(text: &str) -> Result<Vec<Access>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines
        .next()
        .ok_or_else(|| "the plugin wrote nothing".to_string())?;
    let header: Header = serde_json::from_str(first)
        .map_err(|e| format!("the plugin's first line is not its header: {e}"))?;
    if header.kind != "plugin" || header.version != PLUGIN_FORMAT {
        return Err(format!(
            "the plugin wrote format {} {}, this adapter reads plugin {PLUGIN_FORMAT}",
            header.kind, header.version
        ));
    }
    lines
        .map(|(n, line)| {
            serde_json::from_str(line)
                .map_err(|e| format!("the plugin's line {} is not an access: {e}", n + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_lines_are_read_after_their_header() {
        let text = r#"{"kind":"plugin","version":"1"}
{"kind":"call","file":"/r/a/S.kt","start":175,"end":188,"line":7,"origin":"PLUS","callee":{"name":"plus","decl":"function","fq":"kotlin.String.plus","origin":"IR_EXTERNAL_DECLARATION_STUB","operator":true,"owner":{"name":"String","fq":"kotlin.String","kind":"CLASS"},"declarations":[{"kind":"function","name":"plus","origin":"IR_EXTERNAL_DECLARATION_STUB"}],"expects":[]},"context":[{"kind":"function","name":"describe","origin":"DEFINED","file":"/r/a/S.kt","start":126,"end":197,"line":7}]}
"#;
        let accesses = read_accesses(text).unwrap();
        assert_eq!(accesses.len(), 1);
        let a = &accesses[0];
        assert_eq!(a.kind, AccessKind::Call);
        assert_eq!(a.origin.as_deref(), Some("PLUS"));
        assert!(a.callee.operator);
        assert_eq!(a.callee.declarations[0].span(), None);
        assert_eq!(a.context[0].span(), Some(("/r/a/S.kt", 126, 197)));
    }

    #[test]
    fn another_plugin_format_is_refused() {
        let err = read_accesses(r#"{"kind":"plugin","version":"0"}"#).unwrap_err();
        assert!(err.contains("format"), "{err}");
        assert!(read_accesses("").is_err());
        let err = read_accesses("{\"kind\":\"plugin\",\"version\":\"1\"}\n{\"kind\":\"call\"}")
            .unwrap_err();
        assert!(err.contains("line 2"), "{err}");
    }
}
