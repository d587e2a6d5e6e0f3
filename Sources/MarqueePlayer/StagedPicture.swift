import Foundation
import MarqueeCore

/// A decoded picture on its way to the screen, which the decode thread may convert into one of the
/// output's buffers before its turn (`PictureConversion`), so that the present thread only flips.
///
/// The two threads meet here: the decode thread converts it at most once, and only while the
/// present thread has not taken it; the present thread takes the converted buffer when it was
/// converted for the placement it draws with, waits for a conversion under way (it is nearly
/// done, and a second one on the present thread would cost more), and otherwise draws the
/// picture itself, as before.
final class StagedPicture: VideoPicture, @unchecked Sendable {
    // @unchecked: `picture` is immutable; `stage` is behind `condition`.
    let picture: VideoPicture

    enum Stage {
        case waiting
        /// The decode thread is writing it into a buffer.
        case converting
        case converted(OutputBufferLease, VideoPlacement)
        /// The present thread has had its answer, or converting it failed (the present thread then
        /// draws it and reports why): the decode thread leaves it alone.
        case taken
    }
    private var stage = Stage.waiting
    private let condition = NSCondition()

    init(_ picture: VideoPicture) {
        self.picture = picture
    }

    var pts: MediaTime { picture.pts }
    var pictureSize: PixelSize? { picture.pictureSize }
    var format: PictureFormat? { picture.format }
    var byteCount: Int { picture.byteCount }

    func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws {
        try picture.draw(into: buffer, placement: placement, background: background)
    }

    /// Whether the decode thread may still convert it.
    var isWaiting: Bool {
        condition.withLock { if case .waiting = stage { true } else { false } }
    }

    /// Decode thread: converts the picture into `lease`'s buffer for `placement`; false, with the
    /// lease released, when the present thread took it meanwhile or the conversion failed (the
    /// present thread then draws it itself and reports the failure).
    @discardableResult
    func convert(into lease: OutputBufferLease, placement: VideoPlacement, background: RGBColor) -> Bool {
        let begins = condition.withLock {
            guard case .waiting = stage else { return false }
            stage = .converting
            return true
        }
        guard begins else { return false }
        let converted = (try? lease.withPixelBuffer { buffer in
            try picture.draw(into: buffer, placement: placement, background: background)
        }) != nil
        condition.withLock {
            stage = converted ? .converted(lease, placement) : .taken
            condition.broadcast()
        }
        return converted
    }

    /// Decode thread: it will not be converted (it cannot be placed); the present thread draws it.
    func leave() {
        condition.withLock { if case .waiting = stage { stage = .taken } }
    }

    /// Present thread: the buffer the picture was converted into for `placement`, or nil (not
    /// converted, or for another placement: drawn by the caller). Waits for a conversion under way.
    /// Asked once: afterwards the decode thread no longer converts it.
    func take(for placement: VideoPlacement) -> OutputBufferLease? {
        let (lease, convertedFor): (OutputBufferLease?, VideoPlacement?) = condition.withLock {
            while case .converting = stage { condition.wait() }
            defer { stage = .taken }
            if case .converted(let lease, let convertedFor) = stage { return (lease, convertedFor) }
            return (nil, nil)
        }
        // A buffer converted for another placement goes back here, outside the lock: giving it
        // back nudges the decode thread, which takes its queue's lock and then this one.
        return convertedFor == placement ? lease : nil
    }
}
