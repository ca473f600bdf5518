/* For Wine only (scripts/check-addon-zip.sh): Debian's Wine 8 has no bcryptprimitives.dll,
 * which Rust's standard library loads on Windows for ProcessPrng. This stand-in, built with
 * mingw-w64 and put beside the .exe, answers ProcessPrng with RtlGenRandom
 * (SystemFunction036 in advapi32). Never shipped: real Windows has the DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
