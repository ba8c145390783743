/* A loop proved with `--loops havoc`: the user's invariant and inferred
   ones (Houdini) make the VC valid for every number of iterations. */
int A[10];

int main(void) {
  int i = 0;
  /*@ loop invariant 0 <= i; */
  while (i < 10) {
    A[i] = i;
    i++;
  }
  return A[9];
}
