pub fn helper() -> &'static str {
    "util"
}

pub fn shared() -> &'static str {
    "shared"
}
