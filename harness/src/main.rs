/// Validation and corpus runs allocate many small JSON values; glibc's allocator spent a third of
/// `validate`'s time in page faults and free lists (perf), mimalloc removes most of it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    physics_cts::cli::main()
}
