fn main() -> std::process::ExitCode {
    physics_cts::cli::main()
}
