/* <stddef.h> as focuscheck reads C: ILP32 (gcc -m32), C11 7.19. */
#ifndef __FOCUSCHECK_STDDEF_H
#define __FOCUSCHECK_STDDEF_H
typedef unsigned int size_t;
typedef int ptrdiff_t;
typedef long wchar_t;
#define NULL ((void *)0)
#define offsetof(type, member) ((size_t)&((type *)0)->member)
#endif
