/* menu.c -- a command menu: reads a choice with `scanf`, builds a reply
 * with `strcpy`/`strcat`, compares with `strcmp`/`strncmp`.
 * Correct: every buffer is large enough for what is written into it, and
 * the assertions hold on every input. */
#include <assert.h>
typedef unsigned int size_t;
extern int scanf(const char *restrict format, ...);
extern int printf(const char *restrict format, ...);
extern int strcmp(const char *a, const char *b);
extern int strncmp(const char *a, const char *b, size_t n);
extern size_t strlen(const char *s);
extern char *strcpy(char *restrict dst, const char *restrict src);
extern char *strcat(char *restrict dst, const char *restrict src);

const char *names[3] = {"help", "hello", "quit"};

int main(void) {
  int choice;
  char reply[24] = "you said: ";
  char cmd[8];
  if (scanf("%d", &choice) != 1 || choice < 0 || choice > 2)
    return 1;
  strcpy(cmd, names[choice]);
  size_t n = strlen(cmd);
  assert(n >= 4 && n <= 5);
  strcat(reply, cmd);
  assert(strlen(reply) == 10 + n);
  if (strcmp(cmd, "quit") == 0) {
    printf("bye\n");
    return 0;
  }
  assert(strncmp(cmd, "hel", 3) == 0);
  printf("%s\n", reply);
  return 0;
}
