/* <math.h>, C11 7.12: prototypes (floating point is beyond the model:
   a call of one of these is reported where it is). */
#ifndef __FOCUSCHECK_MATH_H
#define __FOCUSCHECK_MATH_H
double fabs(double x);
double sqrt(double x);
double pow(double x, double y);
double floor(double x);
double ceil(double x);
double fmod(double x, double y);
double exp(double x);
double log(double x);
double sin(double x);
double cos(double x);
double tan(double x);
double atan2(double y, double x);
float fabsf(float x);
float sqrtf(float x);
#endif
