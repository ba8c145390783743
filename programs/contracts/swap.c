/* swap through pointers, with its contract: the two cells are valid and
   separate, each ends with the other's value, nothing else changes.
   The bug: `*b = *a` (line 13) stores the value `*a` already has.
   `verify` fails the postcondition and names the assignment; `check`
   finds the run and its focus statements. */
int x, y;

/*@ requires \valid(a) && \valid(b) && \separated(a, b);
    ensures *a == \old(*b) && *b == \old(*a);
    assigns *a, *b; */
void swap(int *a, int *b) {
  *a = *b;
  *b = *a;
}

int main(void) {
  swap(&x, &y);
  return 0;
}
