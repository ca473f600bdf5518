//! Link settings for the extension library.
//!
//! rayon's worker threads live as long as the process and run code from this library. When
//! Godot unloads extensions at exit (`dlclose`), a worker that wakes afterwards jumps into
//! unmapped code and the engine dies with SIGSEGV (seen in the headless engine, about one
//! exit in five after parallel queries). `-z nodelete` keeps the library mapped until the
//! process ends; the `.gdextension` is not hot-reloadable for the same reason.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    }
}
