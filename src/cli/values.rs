//! Command-line names of the core's option values. The core's enums know
//! nothing of clap; these impls (allowed here: the types are this crate's)
//! give each variant its name and help line.

use crate::context::conditions::Property;
use crate::diff::Observe;
use crate::engines::Engine;
use crate::ir::mem::Leaks;
use crate::ir::GlobalsMode;
use crate::views::text::View;
use clap::builder::PossibleValue;

macro_rules! value_enum {
    ($ty:ident { $($variant:ident => $name:literal: $help:literal),* $(,)? }) => {
        impl clap::ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($ty::$variant),*]
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(match self {
                    $($ty::$variant => PossibleValue::new($name).help($help)),*
                })
            }
        }
    };
}

value_enum!(View {
    Reduced => "reduced": "The FSSs Reduce keeps, with their NESTs",
    Fss => "fss": "Every feasible FSS, ranked, with its assumptions",
    Full => "full": "A complete counterexample trace per FSS, with concrete inputs",
});

value_enum!(GlobalsMode {
    Input => "input": "Inputs (the paper's semantics)",
    Zero => "zero": "Zero, as in C",
});

value_enum!(Observe {
    Return => "return": "The entry's return value",
    Globals => "globals": "Every global either version writes",
});

value_enum!(Property {
    All => "all": "Every error condition",
    UnreachCall => "unreach-call": "SV-COMP's `unreach-call`: calls of `reach_error`/`__VERIFIER_error` and failed `__VERIFIER_assert` only",
    User => "user": "Only the `--error` conditions",
    NoOverflow => "no-overflow": "SV-COMP's `no-overflow`: signed arithmetic overflow only (undefined in C; checked only under this property)",
    ValidMemsafety => "valid-memsafety": "SV-COMP's `valid-memsafety`: invalid dereferences and frees, and objects unreachable when `main` returns (`valid-memtrack`)",
    ValidMemtrack => "valid-memtrack": "SV-COMP's `valid-memtrack`: objects unreachable when `main` returns",
    ValidMemcleanup => "valid-memcleanup": "SV-COMP's `valid-memcleanup`: objects not freed when `main` returns",
});

value_enum!(Leaks {
    Track => "track": "An object no pointer chain from a global reaches when `main` returns",
    Cleanup => "cleanup": "An object not freed when `main` returns",
});

value_enum!(Engine {
    Fsum => "fsum": "The Datalog engine alone (procedure summaries; FSSs explained)",
    Vc => "vc": "The VC engine alone (Z3); its counterexamples are explained from their replayed runs",
    Auto => "auto": "The Datalog engine first; a state space past its first share, or what it leaves unknown, goes to the VC engine",
});
