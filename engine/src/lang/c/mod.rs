//! C: frontend (tree → FileFacts, shared with C++), the macro pre-pass (shared),
//! policy (closed lists, rule order) and the rules only C has. See README.md.

pub mod clang14;
pub mod frontend;
pub mod includes;
pub mod macros;
pub mod policy;
pub mod preproc;
pub mod resolve;

/// Whether a path is a header (`.h`, `.hpp`, `.hh`, `.hxx`, `.inc`): what it
/// defines is seen by the files that include it.
pub fn is_header_path(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, e)| matches!(e, "h" | "hpp" | "hh" | "hxx" | "inc" | "ipp" | "tcc"))
}

/// Whether a `.h` file's own content is C++: a line that starts, at top level,
/// with what only C++ writes (`class X`, `namespace`, `template <`, `public:`,
/// `using namespace`, `extern "C++"`) or a `::` scope outside comments and strings.
pub fn header_says_cpp(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut in_comment = false;
    for line in text.lines() {
        let mut l = line.trim();
        if in_comment {
            match l.find("*/") {
                Some(e) => {
                    l = l[e + 2..].trim();
                    in_comment = false;
                }
                None => continue,
            }
        }
        if l.starts_with("/*") && !l.contains("*/") {
            in_comment = true;
            continue;
        }
        if l.starts_with('#') || l.starts_with("//") || l.starts_with('*') {
            continue;
        }
        let starts = |w: &str| {
            l.strip_prefix(w)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '<', '{', ':']))
        };
        if starts("namespace")
            || starts("template")
            || starts("public:")
            || starts("private:")
            || starts("protected:")
            || l.starts_with("using namespace")
            || l.starts_with("extern \"C++\"")
            || (starts("class") && !l.contains(';'))
        {
            return true;
        }
        let mut code = l.split("//").next().unwrap_or("").to_string();
        while let Some(start) = code.find("/*") {
            match code[start..].find("*/") {
                Some(end) => code.replace_range(start..start + end + 2, " "),
                None => {
                    code.truncate(start);
                    in_comment = true;
                }
            }
        }
        if code.contains("::") && !code.contains('"') {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn headers_say_cpp_by_what_only_cpp_writes() {
        assert!(super::header_says_cpp(
            b"#pragma once\nnamespace a {\nint f();\n}\n"
        ));
        assert!(super::header_says_cpp(b"class Box {\n public:\n};\n"));
        assert!(super::header_says_cpp(b"int x = std::max(1, 2);\n"));
        assert!(!super::header_says_cpp(
            b"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void); /* a::b */\n"
        ));
    }
}
