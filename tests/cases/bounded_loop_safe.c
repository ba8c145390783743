// A loop whose every access stays inside the array: proved safe.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[10];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 10)
    return 0;
  int sum = 0;
  for (int i = 0; i < n; i++) {
    a[i] = i;
    sum += a[i];
  }
  return sum;
}
