// An unsigned counter that goes up by 2 from 0: its parity is stated
// with `&` (tests/reports/witness_proofs.rs).
extern void reach_error(void);

int main(void) {
    unsigned int i = 0;
    while (i < 100) {
        i += 2;
    }
    if (i & 1u)
        reach_error();
    return 0;
}
