/* The Morton code of two 8-bit coordinates: bit i of x goes to bit 2i,
   bit i of y to bit 2i+1. A loop over the bits and the mask-and-shift
   version must agree. */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);

unsigned int spread(unsigned int v) {
    v = (v | (v << 4)) & 0x0F0Fu;
    v = (v | (v << 2)) & 0x3333u;
    v = (v | (v << 1)) & 0x5555u;
    return v;
}

int main(void) {
    unsigned char x = __VERIFIER_nondet_uchar();
    unsigned char y = __VERIFIER_nondet_uchar();
    unsigned int slow = 0;
    for (unsigned int i = 0; i < 8; i++) {
        slow |= ((x >> i) & 1u) << (2 * i);
        slow |= ((y >> i) & 1u) << (2 * i + 1);
    }
    unsigned int fast = spread(x) | (spread(y) << 1);
    if (slow != fast) {
        reach_error();
    }
    return 0;
}
