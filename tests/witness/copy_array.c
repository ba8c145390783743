// A loop copying 1000 elements (too many to state each in a witness, and
// no element named by a constant index), one filling another array
// counting down, then loops checking every element at their own counters:
// the witness states each copy's fact in ACSL, `\forall int k; 0 <= k < i
// ==> b[k] == a[k]`, `\forall int k; j < k <= 999 ==> c[k] == 7` and, for
// an array of structs, `\forall int k; 0 <= k < m ==> s[k].n == 3`.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int a[1000], b[1000], c[1000];
struct S {
  int n;
} s[1000];

int main(void) {
  for (int n = 0; n < 1000; n++)
    a[n] = __VERIFIER_nondet_int();
  int i = 0;
  while (i < 1000) {
    b[i] = a[i];
    i++;
  }
  for (int j = 999; j >= 0; j--)
    c[j] = 7;
  for (int m = 0; m < 1000; m++)
    s[m].n = 3;
  for (int x = 0; x < 1000; x++)
    if (a[x] != b[x] || c[x] != 7 || s[x].n != 3)
      reach_error();
  return 0;
}
