// The libFuzzer entry point for one target, chosen with -D FUZZ_<TARGET> by Tests/fuzz/run.
// Built with swiftc -sanitize=fuzzer,address over the parser's own sources (SwiftPM cannot
// link a libFuzzer executable on this toolchain); the same parsers the authdeck-fuzz
// mutation harness drives, here with coverage feedback and AddressSanitizer.
import AuthDeckCore
#if FUZZ_JWT || FUZZ_MSAL
import AuthDeckOAuth
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    #if FUZZ_OAM_URL
    _ = try? OAMConfigURL.parse(text).profile(id: "x")
    #elseif FUZZ_NETSCAPE_COOKIES
    if let cookies = try? NetscapeCookieJar.parse(text, makeID: { "id" }) { _ = try? NetscapeCookieJar.lines(cookies) }
    #elseif FUZZ_JWT
    if let jwt = try? JWT(compact: text) { _ = (jwt.algorithm, jwt.claims.scalarStrings) }
    #elseif FUZZ_MSAL
    if let cache = try? MSALCache(bytes: bytes) { _ = cache.entries }
    #elseif FUZZ_SOAP
    _ = try? SAMLTokenResponse.token(from: text)
    #endif
    return 0
}
