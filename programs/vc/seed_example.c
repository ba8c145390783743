/* Program (1) of Leino, Millstein, Saxe: "Generating error traces from
   verification-condition counterexamples" (seed 000). Every array has
   length 100; the access A[j] fails for k < 0 (and k >= 100). */
int A[100];

int main(void) {
  int k;
  int j;
  int x;
  if (!(k < 10) && k < 20)
    j = k;
  else
    j = k;
  x = A[j];
  return x;
}
