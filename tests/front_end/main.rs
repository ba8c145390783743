//! The front end and the C semantics: parsing, bad input, declarations, the C library, conversions and arithmetic against gcc, floats, the CLI's options and the layers of the code.
//! One test binary per group (the crate links once); each module was a test file of its own.

mod argv;
mod bad_input;
mod c_conversions;
mod c_programs;
mod c_semantics;
#[path = "../support/cli.rs"]
mod cli;
mod cli_options;
mod declarations;
mod entry_params_gcc;
mod examples;
#[path = "../support/float_gen.rs"]
mod float_gen;
mod floats;
mod fuzz_parser;
#[path = "../support/gcc_c.rs"]
mod gcc_c;
mod gcc_diff;
#[path = "../support/gen.rs"]
mod gen;
mod interp_regressions;
mod knr_gcc;
mod layers;
mod lib_gcc;
mod lib_programs;
mod paper;
mod preprocess_gcc;
#[path = "../support/sanitized_gcc.rs"]
mod sanitized_gcc;
#[path = "../support/shared.rs"]
mod shared;
mod sort_gcc;
mod strtok_gcc;
mod tiny_cfgs;
mod typed_conditions;
mod unchecked_files;
#[path = "../support/xorshift.rs"]
mod xorshift;
