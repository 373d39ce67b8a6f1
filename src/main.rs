//! murmur's command line: parse, then hand over to a mode. In the browser (wasm32), the app
//! itself, on the page's canvas.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    let cli = murmur::cli::Cli::parse();
    match murmur::modes::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(e.exit_code())
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    murmur::web::run();
}
