#define SCALE(x) ((x) * Scale)
