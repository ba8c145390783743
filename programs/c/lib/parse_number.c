/* parse_number.c -- `atoi` of a word read with `scanf`, used as an index.
 * Bug: `atoi` accepts a minus sign, and `"-3"` passes the check
 * `v < 10`, so `table[v]` reads before the start of `table` (line 21). */
extern int scanf(const char *restrict format, ...);
extern int atoi(const char *s);
extern int isdigit(int c);
extern int printf(const char *restrict format, ...);

int table[10] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81};

int main(void) {
  char word[4];
  if (scanf("%3s", word) != 1)
    return 1;
  if (!isdigit((unsigned char)word[0]) && word[0] != '-') {
    printf("not a number: %s\n", word);
    return 1;
  }
  int v = atoi(word);
  if (v < 10)
    printf("%d squared is %d\n", v, table[v]);
  return 0;
}
