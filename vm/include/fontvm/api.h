/* Symbol visibility for the public API (the shared library hides the rest). */
#ifndef FONTVM_API_H
#define FONTVM_API_H
#if defined(FONTVM_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define FV_API __attribute__((visibility("default")))
#else
#define FV_API
#endif
#endif
