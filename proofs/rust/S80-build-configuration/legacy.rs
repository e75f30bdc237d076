#[allow(dead_code)]
pub fn helper() -> &'static str {
    "legacy"
}
