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
        /// a body is: the choice is `ResponseBody._backing`, internal to Hummingbird, and
        /// `contentLength` is known for both kinds (a file's body has one). So this reads it
        /// through reflection, the one public way: a body without a length always streams (no
        /// reflection then); otherwise a case of `_backing` without a payload (`.empty`) or
        /// the case named `byteBuffer` is in memory. Anything else — a closure, or a future
        /// Hummingbird that renames its cases — counts as streamed: the child is then kept
        /// until the body has been written, which is always correct, only not batched.
        var isInMemory: Bool {
            guard contentLength != nil,
                let backing = Mirror(reflecting: self).children.first?.value
            else { return false }
            let cases = Mirror(reflecting: backing)
            guard cases.displayStyle == .enum else { return false }
            guard let payload = cases.children.first else { return true }
            return payload.label == "byteBuffer"
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
#endif
