pub fn name() -> &'static str {
    windows_only()
}

fn windows_only() -> &'static str {
    "windows"
}
