// A loop that keeps the low four bits of x clear: its proof needs an
// invariant over x's bits (`(x & 15) == 0`), which C's bitwise operators
// state (tests/reports/witness_proofs.rs).
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
    unsigned int x = __VERIFIER_nondet_uint() & 0xF0u;
    unsigned int n = __VERIFIER_nondet_uint();
    while (n > 0) {
        x = (x + 0x10u) & 0xF0u;
        n--;
    }
    if (x & 0xFu)
        reach_error();
    return 0;
}
