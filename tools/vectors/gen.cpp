// Golden vectors for src/numerics, computed by an implementation we did not write: LLVM's
// APFloat (llvm-22; LLVM 19 lacks Float8E3M4). Writes test/vectors/*.json; run tools/vectors/gen.sh.
// Every input set is deterministic: std::mt19937_64 is fully specified by the C++ standard, and we
// use its raw output only (the std distributions are implementation-defined).
#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/APSInt.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

using llvm::APFloat;
using llvm::APInt;
using llvm::APSInt;

static const APFloat::roundingMode RNE = APFloat::rmNearestTiesToEven;
static std::mt19937_64 rng(0x5d3a6b17c0ffee01ULL);

static uint32_t f2u(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static APFloat f32(uint32_t bits) { return APFloat(APFloat::IEEEsingle(), APInt(32, bits)); }
static uint64_t bitsOf(const APFloat &x) { return x.bitcastToAPInt().getZExtValue(); }

struct Narrow {
  const char *name;  // the sdmakit dtype name
  const llvm::fltSemantics &sem;
  unsigned width;
};
static const Narrow NARROW[] = {
    {"bf16", APFloat::BFloat(), 16},        {"fp16", APFloat::IEEEhalf(), 16},
    {"fp8_e3", APFloat::Float8E3M4(), 8},   {"fp8_e4", APFloat::Float8E4M3(), 8},
    {"fp8_e5", APFloat::Float8E5M2(), 8},
};

static uint64_t encodeRne(const Narrow &n, uint32_t f32bits) {
  APFloat x = f32(f32bits);
  bool loses;
  x.convert(n.sem, RNE, &loses);
  return bitsOf(x);
}
static uint32_t decode(const Narrow &n, uint64_t code) {
  APFloat x(n.sem, APInt(n.width, code));
  bool loses;
  x.convert(APFloat::IEEEsingle(), RNE, &loses);
  return (uint32_t)bitsOf(x);
}

// --- tiny JSON writer: compact arrays, one key per line ----------------------------------------
struct Json {
  FILE *f;
  bool first = true;
  explicit Json(const std::string &path) : f(std::fopen(path.c_str(), "w")) {
    if (!f) { std::perror(path.c_str()); std::exit(1); }
    std::fputs("{", f);
  }
  ~Json() { std::fputs("\n}\n", f); std::fclose(f); }
  void key(const char *k) { std::fprintf(f, "%s\n\"%s\":", first ? "" : ",", k); first = false; }
  void str(const char *k, const std::string &v) { key(k); std::fprintf(f, "\"%s\"", v.c_str()); }
  void hexArray(const char *k, const std::vector<uint64_t> &v, int digits) {
    key(k);
    std::fputc('[', f);
    for (size_t i = 0; i < v.size(); i++) std::fprintf(f, "%s\"%0*" PRIx64 "\"", i ? "," : "", digits, v[i]);
    std::fputc(']', f);
  }
  void intArray(const char *k, const std::vector<uint64_t> &v) {
    key(k);
    std::fputc('[', f);
    for (size_t i = 0; i < v.size(); i++) std::fprintf(f, "%s%" PRIu64, i ? "," : "", v[i]);
    std::fputc(']', f);
  }
};
static const char *SOURCE = "tools/vectors/gen.cpp against LLVM 22 APFloat; regenerate with tools/vectors/gen.sh";

// --- every fp8 / bf16 / fp16 code decoded to fp32 ----------------------------------------------
static void writeDecode(const std::string &dir) {
  Json j(dir + "/decode.json");
  j.str("source", SOURCE);
  for (const Narrow &n : NARROW) {
    std::vector<uint64_t> out;
    for (uint64_t code = 0; code < (1ULL << n.width); code++) out.push_back(decode(n, code));
    j.hexArray(n.name, out, 8);
  }
}

// --- fp32 → narrow float, RNE, stratified --------------------------------------------------------
static float nextUp(float x) { return std::nextafter(x, INFINITY); }
static float nextDown(float x) { return std::nextafter(x, -INFINITY); }

static std::vector<uint32_t> encodeInputs(const Narrow &n) {
  std::vector<uint32_t> in;
  auto add = [&](float v) {
    in.push_back(f2u(v));
    in.push_back(f2u(-v));
  };
  const uint64_t infCode = bitsOf(APFloat::getInf(n.sem));
  // Each finite code (a sample of them for the 16-bit formats): the value, its fp32 neighbours,
  // the midpoint to the next code (a tie), and the midpoint's fp32 neighbours.
  for (uint64_t code = 0; code < infCode; code++) {
    bool edge = code < 80 || code + 80 > infCode;
    if (n.width == 16 && !edge && code % 7 != 0) continue;
    float v = u2f(decode(n, code));
    // Above max finite, the "next code" is where 2^(emax+1) would be: the overflow threshold.
    float next = code + 1 < infCode ? u2f(decode(n, code + 1)) : (float)(2.0 * v - u2f(decode(n, code - 1)));
    float mid = (float)(((double)v + (double)next) / 2);  // exact: one more bit than the format
    for (float x : {v, nextUp(v), nextDown(v), mid, nextUp(mid), nextDown(mid)}) add(x);
  }
  // Specials: signed zeros, infs, NaNs (quiet, signalling, payloads), fp32 extremes.
  for (uint32_t b : {0x00000000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7fbfffffu, 0x7fffffffu, 0x7fc00001u,
                     0x7f7fffffu, 0x00800000u, 0x00000001u, 0x007fffffu, 0x00400000u}) {
    in.push_back(b);
    in.push_back(b | 0x80000000u);
  }
  // Random: half uniform fp32 bit patterns, half log-uniform around the format's range.
  const int emin = llvm::APFloat::semanticsMinExponent(n.sem);
  const int emax = llvm::APFloat::semanticsMaxExponent(n.sem);
  const int p = (int)llvm::APFloat::semanticsPrecision(n.sem);
  const int lo = std::max(emin - p - 3, -149), hi = std::min(emax + 2, 127);
  for (int i = 0; i < 50000; i++) in.push_back((uint32_t)rng());
  for (int i = 0; i < 50000; i++) {
    uint64_t r = rng();
    int e = lo + (int)((r >> 32) % (uint64_t)(hi - lo + 1));
    uint32_t mant = (uint32_t)r & 0x7fffff;
    uint32_t sign = (uint32_t)(r >> 31) & 0x80000000u;
    uint32_t bits = e >= -126 ? ((uint32_t)(e + 127) << 23) | mant : (mant | 0x800000) >> (-126 - e);
    in.push_back(sign | bits);
  }
  return in;
}

static void writeEncode(const std::string &dir) {
  for (const Narrow &n : NARROW) {
    std::vector<uint32_t> in = encodeInputs(n);
    std::vector<uint64_t> inputs(in.begin(), in.end()), expected;
    for (uint32_t u : in) expected.push_back(encodeRne(n, u));
    Json j(dir + "/encode-" + n.name + ".json");
    j.str("source", SOURCE);
    j.str("dtype", n.name);
    j.str("rounding", "rne, overflow to inf (APFloat convert, rmNearestTiesToEven)");
    j.hexArray("inputs", inputs, 8);
    j.intArray("expected", expected);
  }
}

// --- facts the model states, read off APFloat ---------------------------------------------------
static void writeFacts(const std::string &dir) {
  Json j(dir + "/facts.json");
  j.str("source", SOURCE);
  for (const Narrow &n : NARROW) {
    // The smallest fp32 that rounds to inf: binary search over positive fp32 bit patterns.
    uint32_t a = 0, b = 0x7f800000u;
    while (a + 1 < b) {
      uint32_t m = a + (b - a) / 2;
      APFloat x = f32(m);
      bool loses;
      x.convert(n.sem, RNE, &loses);
      (x.isInfinity() ? b : a) = m;
    }
    std::vector<uint64_t> facts = {bitsOf(APFloat::getLargest(n.sem)), bitsOf(APFloat::getInf(n.sem)),
                                   bitsOf(APFloat::getSmallest(n.sem)), b,
                                   decode(n, bitsOf(APFloat::getLargest(n.sem)))};
    std::string k = std::string(n.name);
    j.hexArray(k.c_str(), facts, 8);
  }
  j.str("layout", "per dtype: [largest code, inf code, smallest subnormal code, smallest fp32 bits that round to inf, fp32 bits of largest]");
}

// --- integers → fp32 and fp32 → integers --------------------------------------------------------
static std::vector<uint64_t> intInputs(unsigned bits) {
  std::set<uint64_t> s;
  const uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
  auto add = [&](uint64_t v) {
    s.insert(v & mask);
    s.insert((0 - v) & mask);  // the two's complement negation: negative inputs of signed types
  };
  for (unsigned k = 0; k < bits; k++) {
    uint64_t p = 1ULL << k;
    for (uint64_t v : {p, p - 1, p + 1}) add(v);
    if (k >= 24) {
      uint64_t half = 1ULL << (k - 24);  // half an fp32 ulp at 2^k
      for (uint64_t m : {1ULL, 3ULL, 5ULL, 0xffffffULL, 0x1fffffeULL})
        for (uint64_t v : {p + m * half, p + m * half - 1, p + m * half + 1}) add(v);
    }
  }
  add(0x1000001000000001ULL);  // 2^60 + 2^36 + 1 (../shared/GROUND_TRUTH.md double-rounding case)
  for (int i = 0; i < 4000; i++) {
    uint64_t r = rng();
    add(r);
    add(r >> (rng() % bits));  // random length: every magnitude
  }
  return std::vector<uint64_t>(s.begin(), s.end());
}

static void writeIntToF32(const std::string &dir) {
  Json j(dir + "/int-to-fp32.json");
  j.str("source", SOURCE);
  j.str("layout", "per dtype: inputs as two's-complement hex of the dtype's width, expected fp32 bits (APFloat convertFromAPInt, RNE)");
  struct T { const char *name; unsigned bits; bool isSigned; };
  for (T t : {T{"int32", 32, true}, T{"uint32", 32, false}, T{"int64", 64, true}, T{"uint64", 64, false}}) {
    std::vector<uint64_t> in = intInputs(t.bits), out;
    for (uint64_t v : in) {
      APFloat x(APFloat::IEEEsingle());
      x.convertFromAPInt(APInt(t.bits, v), t.isSigned, RNE);
      out.push_back(bitsOf(x));
    }
    j.hexArray((std::string(t.name) + "_inputs").c_str(), in, t.bits / 4);
    j.hexArray((std::string(t.name) + "_expected").c_str(), out, 8);
  }
}

static void writeF32ToInt(const std::string &dir) {
  Json j(dir + "/fp32-to-int.json");
  j.str("source", SOURCE);
  j.str("layout", "inputs fp32 bits; per dtype the expected two's-complement hex (APFloat convertToInteger, RNE: saturates, NaN -> 0)");
  std::vector<uint32_t> in;
  for (int e = -2; e <= 66; e++)
    for (float m : {1.0f, 1.5f, 1.25f, 1.75f, nextDown(2.0f), nextUp(1.0f), 1.0f + 0.5f / (1 << 20)}) {
      float v = std::ldexp(m, e);
      for (float x : {v, nextUp(v), nextDown(v), v + 0.5f, v - 0.5f}) {
        in.push_back(f2u(x));
        in.push_back(f2u(-x));
      }
    }
  for (uint32_t b : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0u, 0x80000000u}) in.push_back(b);
  for (int i = 0; i < 8000; i++) {
    uint64_t r = rng();
    int e = -3 + (int)((r >> 32) % 70);
    in.push_back(((uint32_t)(r >> 31) & 0x80000000u) | ((uint32_t)(e + 127) << 23) | ((uint32_t)r & 0x7fffff));
  }
  std::vector<uint64_t> inputs(in.begin(), in.end());
  j.hexArray("inputs", inputs, 8);
  struct T { const char *name; unsigned bits; bool isSigned; };
  for (T t : {T{"int8", 8, true}, T{"uint8", 8, false}, T{"int16", 16, true}, T{"uint16", 16, false},
              T{"int32", 32, true}, T{"uint32", 32, false}, T{"int64", 64, true}, T{"uint64", 64, false}}) {
    std::vector<uint64_t> out;
    for (uint32_t u : in) {
      APSInt r(t.bits, !t.isSigned);
      bool exact;
      f32(u).convertToInteger(r, RNE, &exact);
      out.push_back(r.getZExtValue() & (t.bits == 64 ? ~0ULL : (1ULL << t.bits) - 1));
    }
    j.hexArray(t.name, out, t.bits / 4);
  }
}

// --- fused multiply-add ----------------------------------------------------------------------
static uint32_t fusedRef(uint32_t a, uint32_t b, uint32_t c) {
  APFloat x = f32(a);
  x.fusedMultiplyAdd(f32(b), f32(c), RNE);
  return (uint32_t)bitsOf(x);
}
static uint32_t doubleRounded(uint32_t a, uint32_t b, uint32_t c) {
  return f2u((float)((double)u2f(a) * (double)u2f(b) + (double)u2f(c)));
}

static void writeFma(const std::string &dir) {
  std::vector<uint64_t> A, B, C, R;
  size_t hard = 0;
  auto add = [&](float a, float b, float c) {
    A.push_back(f2u(a)); B.push_back(f2u(b)); C.push_back(f2u(c));
    R.push_back(fusedRef(f2u(a), f2u(b), f2u(c)));
    if (R.back() != doubleRounded(f2u(a), f2u(b), f2u(c))) hard++;
  };
  add(std::ldexp(1.0f + std::ldexp(1.0f, -23), -12), std::ldexp(2.0f - std::ldexp(1.0f, -22), -13),
      1.0f + std::ldexp(1.0f, -23));  // ../shared/GROUND_TRUTH.md: fused 1 + 2^-23, double-rounded 1 + 2^-22
  // Constructed: a·b = ±(half an ulp of c)·(1 ± tiny) so the double sum lands exactly on an fp32
  // midpoint while the exact sum does not. Products with a tiny relative offset from a power of
  // two: (1 + 2^-23)(1 − 2^-23) = 1 − 2^-46 and 641 · 6700417 = 2^32 + 1.
  struct Pair { float a, b; int log2; };
  const Pair pairs[] = {{1.0f + std::ldexp(1.0f, -23), 1.0f - std::ldexp(1.0f, -23), 0},
                        {641.0f, 6700417.0f, 32}};
  for (int i = 0; i < 12000; i++) {
    uint64_t r = rng();
    // c: random sign and mantissa, exponent across the normal range (some at a binade start).
    int ce = -100 + (int)((r >> 40) % 220);
    uint32_t mant = (r >> 8) % 5 == 0 ? 0 : (uint32_t)r & 0x7fffff;
    float c = u2f(((uint32_t)(ce + 127) << 23) | mant);
    if (r & (1ULL << 63)) c = -c;
    const Pair &pr = pairs[(r >> 38) & 1];
    // Target |a·b| ≈ half an ulp of c, below (toward zero) or above c.
    bool towardZero = (r >> 37) & 1;
    int ulpExp = ce - 23 - ((towardZero && mant == 0) ? 1 : 0);
    int split = (int)((r >> 30) % 60) - 30;
    float a = std::ldexp(pr.a, split - pr.log2);
    float b = std::ldexp(pr.b, ulpExp - 1 - split);
    if (std::isinf(a) || std::isinf(b) || a == 0 || b == 0) continue;
    if (towardZero != (c < 0)) b = -b;  // b's sign decides whether p moves c up or down
    add(a, b, c);
  }
  // Overflow threshold: c = ±max, p = ±2^103·(1 ± tiny).
  for (float s : {1.0f, -1.0f})
    for (const Pair &pr : pairs)
      for (float t : {1.0f, -1.0f}) add(std::ldexp(pr.a, -pr.log2), std::ldexp(pr.b, 103) * t, s * FLT_MAX);
  // Subnormal results: c = k·2^-149, p = ±2^-150·(1 ± tiny).
  for (int k = 0; k < 64; k++)
    for (const Pair &pr : pairs)
      for (float t : {1.0f, -1.0f})
        add(std::ldexp(pr.a, -70 - pr.log2), std::ldexp(pr.b, -80) * t, std::ldexp((float)k, -149));
  // Random triples: uniform bits, and moderate exponents where cancellation is common.
  for (int i = 0; i < 4000; i++) add(u2f((uint32_t)rng()), u2f((uint32_t)rng()), u2f((uint32_t)rng()));
  for (int i = 0; i < 4000; i++) {
    auto moderate = [&]() {
      uint64_t r = rng();
      return u2f(((uint32_t)(r >> 31) & 0x80000000u) | ((uint32_t)(100 + (r >> 32) % 56) << 23) | ((uint32_t)r & 0x7fffff));
    };
    add(moderate(), moderate(), moderate());
  }
  Json j(dir + "/fma.json");
  j.str("source", SOURCE);
  j.str("layout", "a, b, c, expected fp32 bits: expected = fusedMultiplyAdd(a, b, c) rounded once, RNE");
  j.str("hard_cases", std::to_string(hard) + " of " + std::to_string(R.size()) + " differ from (float)((double)a*b + c)");
  j.hexArray("a", A, 8);
  j.hexArray("b", B, 8);
  j.hexArray("c", C, 8);
  j.hexArray("expected", R, 8);
  std::fprintf(stderr, "fma: %zu cases, %zu double-rounding hard cases\n", R.size(), hard);
}

// --- the SR random source, from the reference algorithms ----------------------------------------
static void writeXoshiro(const std::string &dir) {
  Json j(dir + "/xoshiro.json");
  j.str("source", "tools/vectors/gen.cpp: splitmix32 seeding + xoshiro128** (Blackman & Vigna reference C)");
  for (uint32_t seed : {0u, 1u, 42u, 0xdeadbeefu, 0xffffffffu}) {
    uint32_t s[4], weyl = seed;
    for (int i = 0; i < 4; i++) {
      uint32_t z = (weyl += 0x9e3779b9u);
      z = (z ^ (z >> 16)) * 0x85ebca6bu;
      z = (z ^ (z >> 13)) * 0xc2b2ae35u;
      s[i] = z ^ (z >> 16);
    }
    std::vector<uint64_t> out;
    for (int i = 0; i < 64; i++) {
      auto rotl = [](uint32_t x, int k) { return (x << k) | (x >> (32 - k)); };
      out.push_back(rotl(s[1] * 5, 7) * 9);
      uint32_t t = s[1] << 9;
      s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 11);
    }
    j.hexArray(("seed_" + std::to_string(seed)).c_str(), out, 8);
  }
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "test/vectors";
  writeDecode(dir);
  writeEncode(dir);
  writeFacts(dir);
  writeIntToF32(dir);
  writeF32ToInt(dir);
  writeFma(dir);
  writeXoshiro(dir);
  return 0;
}
