//! The memory model: pointers, structs, the heap, lists, points-to, against gcc's sanitizers.
//! One test binary per group (the crate links once); each module was a test file of its own.

#[path = "../support/array_gen.rs"]
mod array_gen;
#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/exhaust.rs"]
mod exhaust;
#[path = "../support/fnptr_gen.rs"]
mod fnptr_gen;
#[path = "../support/gen.rs"]
mod gen;
mod heap;
mod heap_lists;
mod init_gcc;
#[path = "../support/init_gen.rs"]
mod init_gen;
#[path = "../support/list_gen.rs"]
mod list_gen;
mod mem_gcc;
mod memory;
mod points_to;
#[path = "../support/ptr_gen.rs"]
mod ptr_gen;
#[path = "../support/sanitized_gcc.rs"]
mod sanitized_gcc;
#[path = "../support/xorshift.rs"]
mod xorshift;
