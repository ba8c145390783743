/* shout.c -- upper-cases a greeting with `toupper`.
 * Bug: `greeting` points to a string literal, which is read-only: the
 * first write through it, `s[i] = ...` (line 16), faults as it does when
 * compiled by gcc. */
extern int toupper(int c);
extern int puts(const char *s);
extern int __VERIFIER_nondet_int(void);

const char *greet(int formal) {
  return formal ? "good day" : "hi";
}

void shout(char *s) {
  int i = 0;
  while (s[i] != '\0') {
    s[i] = (char)toupper(s[i]);
    i++;
  }
}

int main(void) {
  char *greeting = (char *)greet(__VERIFIER_nondet_int());
  shout(greeting);
  puts(greeting);
  return 0;
}
