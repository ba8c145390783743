/* <math.h>, C11 7.12. `fabs`, `sqrt`, `floor`, `ceil`, `trunc`, `round`,
   `fmin`, `fmax` (and their `f` forms) and the classification macros are
   modelled exactly (IEEE 754, docs/cimple.md); a call of any other is
   reported where it is. */
#ifndef __FOCUSCHECK_MATH_H
#define __FOCUSCHECK_MATH_H
/* A quiet NaN with the sign clear, as glibc's. */
#define NAN (-(0.0f / 0.0f))
#define INFINITY (1e300f * 1e300f)
#define HUGE_VAL (1e300 * 1e300)
#define HUGE_VALF (1e300f * 1e300f)
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)
double fabs(double x);
double sqrt(double x);
double floor(double x);
double ceil(double x);
double trunc(double x);
double round(double x);
double fmin(double x, double y);
double fmax(double x, double y);
float fabsf(float x);
float sqrtf(float x);
float floorf(float x);
float ceilf(float x);
float truncf(float x);
float roundf(float x);
float fminf(float x, float y);
float fmaxf(float x, float y);
double pow(double x, double y);
double fmod(double x, double y);
double exp(double x);
double log(double x);
double sin(double x);
double cos(double x);
double tan(double x);
double atan2(double y, double x);
#endif
