import CTLS

/// The emulator's https port: TLS ends here and each connection's bytes go on to a plain
/// loopback listener that knows its requests came over TLS.
///
/// Why a relay in C rather than TLS inside FlyingFox: FlyingFox reads and writes its sockets
/// itself; the relay keeps the routes, and the one request → response function, the same for
/// both ports. OpenSSL is dlopen()ed (CTLS) as libcurl is, so a plain emulator never loads it.
enum TLSListener {
    /// Listens on 127.0.0.1:`port` (0: a free one) with the PEM files; returns the bound port.
    static func start(port: UInt16, certificateFile: String, keyFile: String, backendPort: UInt16) throws -> UInt16 {
        var reason = [CChar](repeating: 0, count: 700)
        var bound: Int32 = 0
        guard ad_tls_serve(Int32(port), certificateFile, keyFile, Int32(backendPort), &bound, &reason, reason.count) == 0 else {
            throw EmulatorTLSError(message: String(cString: reason))
        }
        return UInt16(bound)
    }
}
