/* Unrolling (seed 000, section 4.2): the loop head is labelled with the
   iteration; the error needs two iterations (s = 2 + 3), so
   `--loops unroll:2` finds it and `unroll:1` does not ("no error within 1
   loop iteration"). */
int A[4];

int main(void) {
  int n;
  int i = 0;
  int s = 0;
  while (i < n) {
    if (i == 0)
      s = s + 2;
    else
      s = s + 3;
    i++;
  }
  A[s] = 1;
  return 0;
}
