// A loop filling 1000 elements (too many to state each in a witness),
// then two elements read at constant indices: the invariant states the
// fill's fact at those two indices only, `(i <= 500 || a[500] == 1001)`.
extern void reach_error(void);

int a[1000];

int main(void) {
  for (int i = 0; i < 1000; i++)
    a[i] = 2 * i + 1;
  if (a[500] != 1001 || a[999] != 1999)
    reach_error();
  return 0;
}
