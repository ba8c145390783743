fn main() {
    std::process::exit(focuscheck::cli::main());
}
