/* <stdio.h>, C11 7.21: prototypes (their models are the library's). */
#ifndef __FOCUSCHECK_STDIO_H
#define __FOCUSCHECK_STDIO_H
#include <stddef.h>
typedef struct __focuscheck_FILE FILE;
#define EOF (-1)
#define BUFSIZ 8192
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
int printf(const char *restrict format, ...);
int fprintf(FILE *restrict stream, const char *restrict format, ...);
int sprintf(char *restrict s, const char *restrict format, ...);
int snprintf(char *restrict s, size_t n, const char *restrict format, ...);
int puts(const char *s);
int fputs(const char *restrict s, FILE *restrict stream);
int putchar(int c);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int scanf(const char *restrict format, ...);
int fscanf(FILE *restrict stream, const char *restrict format, ...);
int sscanf(const char *restrict s, const char *restrict format, ...);
int getchar(void);
int fgetc(FILE *stream);
int getc(FILE *stream);
char *fgets(char *restrict s, int n, FILE *restrict stream);
int fflush(FILE *stream);
void perror(const char *s);
#endif
