// An array written one past its end by a loop bound: the fix is at `<=`.
int main(void) {
  int a[5];
  for (int i = 0; i <= 5; i++)
    a[i] = i * i;
  return a[0];
}
