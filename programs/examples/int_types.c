/* int_types.c -- the integer types `unsigned`, `long`, `long long`,
 * `short`, `char`, `unsigned char` and `_Bool`, casts, hex literals, and
 * __VERIFIER_nondet_uint()/_uchar()/_long(): each value stays inside its
 * type's range (wrap-around is not modelled).
 * Correct: an unsigned input is >= 0 and an unsigned char at most 0xFF,
 * so the assertions on lines 21 and 22 hold and no error is reachable. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long __VERIFIER_nondet_long(void);

long long scale = 0x100;
short delta = -2;

int main() {
  unsigned int u = __VERIFIER_nondet_uint();
  unsigned char byte = __VERIFIER_nondet_uchar();
  long l = __VERIFIER_nondet_long();
  char sign = l < 0 ? '-' : '+';
  _Bool big = (_Bool)(u > 1000);
  long long wide = byte * scale + delta;
  __VERIFIER_assert(u + 1 > 0 && byte <= 0xFF && (big || u <= 1000));
  __VERIFIER_assert(wide >= -2 && (sign == '-' || l >= 0));
  return 0;
}
