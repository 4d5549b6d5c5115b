#if Hummingbird
    import Frost
    import Hummingbird

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    extension ResponseBody {
        /// Whether the body is already in memory — `ResponseBody(byteBuffer:)`, what a handler
        /// that returns a `String`, a `ByteBuffer` or an encoded value gets, or an empty body —
        /// rather than written by a closure (a stream, a file, `ResponseBody(contentsOf:)`).
        ///
        /// Hummingbird writes an in-memory body with its head and end in one batched write
        /// (one `writev`), and a closure's body part by part. Its public API does not say which
        /// a body is: the choice is the case of `ResponseBody._backing`, internal to
        /// Hummingbird, and `contentLength` is known for both kinds (a file's body has one).
        /// `Mirror` can read the case, but costs about 2.7 µs a response (measured in release
        /// mode), several percent of a small request's CPU. So this asks the Swift runtime for
        /// the case's name, as `String(describing:)` of an enum does (`swift_EnumCaseName`,
        /// about 0.45 µs): a body without a length always streams (nothing asked then);
        /// otherwise the cases named `byteBuffer` and `empty` are in memory. Anything else — a
        /// closure, or a future Hummingbird whose `ResponseBody` is laid out differently or
        /// whose cases are named otherwise — counts as streamed: the child is then kept until
        /// the body has been written, which is always correct, only not batched.
        var isInMemory: Bool {
            guard contentLength != nil, let backingType = Self.backingType else { return false }
            return Self.isInMemory(self, as: backingType)
        }

        /// The type of `_backing`, the one stored property of `ResponseBody`, whose layout is
        /// therefore the body's; `nil` if Hummingbird's `ResponseBody` holds anything else.
        private static let backingType: Any.Type? = {
            let stored = Mirror(reflecting: ResponseBody()).children
            guard stored.count == 1, let backing = stored.first?.value else { return nil }
            let type = Swift.type(of: backing)
            return Mirror(reflecting: backing).displayStyle == .enum ? type : nil
        }()

        /// Whether `body`, read as its `_backing` enum `Backing`, is in one of the in-memory
        /// cases.
        private static func isInMemory<Backing>(_ body: ResponseBody, as _: Backing.Type) -> Bool {
            guard MemoryLayout<Backing>.size == MemoryLayout<ResponseBody>.size,
                let name = enumCaseName(unsafeBitCast(body, to: Backing.self))
            else { return false }
            return name.equals("byteBuffer") || name.equals("empty")
        }

        /// This body, written while `disposal`'s child is the current container, then
        /// `disposal` once it has been written, or writing it failed. (Hummingbird's
        /// `withPostWriteClosure` is not public.)
        func followed(by disposal: ChildDisposal) -> ResponseBody {
            ResponseBody(contentLength: contentLength) { writer in
                do {
                    try await FrozenContainer.$current.withValue(disposal.child) {
                        try await self.write(writer)
                    }
                } catch {
                    await disposal.dispose()
                    throw error
                }
                await disposal.dispose()
            }
        }
    }

    /// The name of the case `value`, an enum, holds; `nil` when it is not an enum. The Swift
    /// runtime's function behind `String(describing:)` of an enum case.
    @_silgen_name("swift_EnumCaseName")
    private func enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

    extension UnsafePointer<CChar> {
        /// Whether this NUL-terminated string is `expected`.
        fileprivate func equals(_ expected: StaticString) -> Bool {
            expected.withUTF8Buffer { bytes in
                for (index, byte) in bytes.enumerated() where UInt8(bitPattern: self[index]) != byte
                {
                    return false
                }
                return self[bytes.count] == 0
            }
        }
    }
#endif
