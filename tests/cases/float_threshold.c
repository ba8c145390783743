// A float computed from an input reaches a threshold at the top of its range.
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

int main(void) {
  float raw = __VERIFIER_nondet_float();
  if (!(raw >= 0.0f && raw <= 1023.0f))
    return 0;
  float volts = raw * (5.0f / 1023.0f);
  if (volts >= 5.0f)
    reach_error();
  return 0;
}
