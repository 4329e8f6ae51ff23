/// The key-derivation iteration counts a PKCS#12 bundle asks for, read from its DER before any
/// key is derived, and the cap above which a bundle is refused.
///
/// Why: opening a bundle runs its MAC's and its encryption's key derivation as many times as
/// the file says. 2^31−1 iterations pinned a CPU for hours, from a file anyone can hand over.
/// Real bundles use 2,048 (OpenSSL 3's default, and Java's keytool's 10,000 or 50,000 for
/// the MAC and encryption); 1,000,000 leaves room for any deliberate choice while keeping
/// the worst case near a second.
///
/// What is read: the MacData's count, and the parameters of every PKCS#5 (PBES1, PBKDF2 — the
/// latter also inside PBES2 and PBMAC1) and PKCS#12 PBE algorithm identifier found in the
/// bundle's structure, looking inside OCTET STRINGs that hold DER (the authenticated safe and
/// its bags). Bags inside an encrypted safe cannot be read before it is decrypted; that
/// decryption's own count has been checked by then, but a shrouded key bag nested inside it
/// is checked by libcrypto only.
public enum PKCS12Iterations {
    /// The most iterations a bundle's MAC or encryption may ask for.
    public static let cap = 1_000_000
    /// How deep the structure may nest before the bundle is refused as unreadable.
    static let maxDepth = 24

    /// One DER/BER element: its tag, its content, and its children when constructed (or when
    /// an OCTET STRING's content is itself DER).
    struct Node {
        var tag: UInt8
        var content: ArraySlice<UInt8>
        var children: [Node]?
    }

    /// The largest iteration count in `der`, 0 when it names none; nil when `der` is not a
    /// readable DER structure (then nothing can be said about the cost of opening it).
    public static func largest(in der: [UInt8]) -> Int? {
        guard let (root, end) = parse(der[...], depth: 0), end == der.endIndex else { return nil }
        var found = 0
        // PFX ::= SEQUENCE { version, authSafe ContentInfo, macData MacData OPTIONAL }
        // MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }
        if let pfx = root.children, pfx.count >= 3, let mac = pfx[2].children, mac.count >= 3, mac[2].tag == 0x02 {
            found = max(found, integer(mac[2].content))
        }
        visit(root) { found = max(found, $0) }
        return found
    }

    /// pkcs-5 (1.2.840.113549.1.5): PBES1 schemes and PBKDF2 — but not PBES2 (.13) or PBMAC1
    /// (.14), whose parameters hold a PBKDF2 identifier of their own, found as the walk goes on.
    static let pkcs5: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05]
    /// pkcs-12PbeIds (1.2.840.113549.1.12.1).
    static let pkcs12PBE: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]

    /// Calls `found` with the iteration count of every key-derivation algorithm identifier.
    static func visit(_ node: Node, _ found: (Int) -> Void) {
        guard let children = node.children else { return }
        if node.tag == 0x30, children.count >= 2, children[0].tag == 0x06 {
            let oid = Array(children[0].content)
            let derivation = (oid.count == pkcs5.count + 1 && oid.starts(with: pkcs5) && oid.last != 0x0D && oid.last != 0x0E)
                || (oid.count == pkcs12PBE.count + 1 && oid.starts(with: pkcs12PBE))
            // PBEParameter, pkcs-12PbeParams and PBKDF2-params all start { salt, iterationCount, … }.
            if derivation, let parameters = children[1].children, parameters.count >= 2, parameters[1].tag == 0x02 {
                found(integer(parameters[1].content))
            }
        }
        for child in children { visit(child, found) }
    }

    /// A non-negative INTEGER's value; one too large for an Int, or negative, counts as Int.max.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let first = bytes.first, first & 0x80 == 0 else { return Int.max }
        let significant = bytes.drop { $0 == 0 }
        guard significant.count <= 7 else { return Int.max }
        return significant.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Parses one element at the start of `bytes`; returns it and where it ends.
    static func parse(_ bytes: ArraySlice<UInt8>, depth: Int) -> (Node, Int)? {
        guard depth <= maxDepth, bytes.count >= 2 else { return nil }
        var at = bytes.startIndex
        let tag = bytes[at]
        guard tag & 0x1F != 0x1F else { return nil }  // high tag numbers appear nowhere in PKCS#12
        at += 1
        let constructed = tag & 0x20 != 0
        let first = bytes[at]
        at += 1
        if first == 0x80 {
            // BER's indefinite length: children up to the end-of-contents octets.
            guard constructed else { return nil }
            var children: [Node] = []
            while true {
                guard bytes.endIndex - at >= 2 else { return nil }
                if bytes[at] == 0, bytes[at + 1] == 0 { return (Node(tag: tag, content: bytes[at..<at], children: children), at + 2) }
                guard let (child, end) = parse(bytes[at...], depth: depth + 1) else { return nil }
                children.append(child)
                at = end
            }
        }
        var length = 0
        if first & 0x80 == 0 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), bytes.endIndex - at >= count else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[at])
                at += 1
            }
        }
        guard bytes.endIndex - at >= length else { return nil }
        let content = bytes[at..<(at + length)]
        var node = Node(tag: tag, content: content, children: nil)
        if constructed {
            guard let children = parseAll(content, depth: depth + 1) else { return nil }
            node.children = children
        } else if tag == 0x04, let inner = parseAll(content, depth: depth + 1), !inner.isEmpty {
            // An OCTET STRING holding DER (the authenticated safe, a safe's bags).
            node.children = inner
        }
        return (node, at + length)
    }

    /// Parses `bytes` as a run of elements that fills it exactly; nil otherwise.
    static func parseAll(_ bytes: ArraySlice<UInt8>, depth: Int) -> [Node]? {
        var out: [Node] = []
        var at = bytes.startIndex
        while at < bytes.endIndex {
            guard let (node, end) = parse(bytes[at...], depth: depth) else { return nil }
            out.append(node)
            at = end
        }
        return out
    }
}
