/* line_reader.c -- reads a line with `getchar` into a buffer.
 * Bug: the loop stops at a newline or at EOF but never at the end of
 * `line`: the ninth character of a long line is written past it
 * (line 17). */
extern int getchar(void);
extern int printf(const char *restrict format, ...);
#define EOF (-1)
#define MAX 8

int main(void) {
  char line[MAX];
  int n = 0;
  int c;
  while ((c = getchar()) != EOF && c != '\n') {
    if (c == '\r')
      continue;
    line[n++] = (char)c;
  }
  if (n < MAX)
    line[n] = '\0';
  printf("read %d characters\n", n);
  return 0;
}
