//! Puts memory.x where the linker looks, so that `-Tmemory.x` (.cargo/config.toml) finds it.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
    println!("cargo:rustc-link-search={dir}");
    println!("cargo:rerun-if-changed=memory.x");
}
