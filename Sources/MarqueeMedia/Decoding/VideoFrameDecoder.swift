import CFFmpeg
import Foundation
import MarqueeCore

/// Reads the packets of one video stream from a container and decodes them into frames, riding out
/// damage: a packet the decoder rejects is skipped, and a read error ends the input the way the end
/// of the file does (as the ffmpeg CLI treats it), so a damaged file plays what can be played.
///
/// One decode thread uses it. Expected outcomes (a frame, the end) are return values; only what
/// stops decoding altogether is thrown.
final class VideoFrameDecoder {
    let container: InputContainer
    let decoder: CodecContext
    private let packet: Packet
    /// A packet the decoder refused until its pending frames were taken: sent again before reading on.
    private var packetPending = false
    private var inputEnded = false
    private var endOfStreamSent = false

    /// Frames delivered since the container was opened.
    private(set) var framesDecoded = 0
    /// Packets or frames lost to damage since the container was opened.
    private(set) var damageCount = 0
    /// The last decode failure, kept as the cause to report if nothing at all can be decoded.
    private(set) var lastDamage: FFmpegError?
    /// The read error that ended the input early, if one did.
    private(set) var readFailure: FFmpegError?

    /// A decoder that reports errors this many times in a row without being given anything new is
    /// stuck, not damaged; stopping beats spinning forever on a device nobody watches.
    static let stuckErrorLimit = 64
    /// How long to wait before asking a demuxer that said "try again" (EAGAIN) for the packet again.
    static let retryDelay: TimeInterval = 0.01

    init(stream streamIndex: Int, of container: InputContainer) throws(FFmpegError) {
        self.container = container
        // 0: FFmpeg picks one thread per core, frame and slice threading as the codec supports.
        decoder = try CodecContext(decoding: streamIndex, of: container, threadCount: 0)
        packet = try Packet()
    }

    var streamIndex: Int { decoder.streamIndex }
    var timeBase: AVRational { decoder.timeBase }

    /// Fills `frame` with the next frame in presentation order; false once the stream is exhausted.
    func decode(into frame: Frame) throws(FFmpegError) -> Bool {
        var errorsWithoutInput = 0
        while true {
            let outcome: CodecContext.ReceiveOutcome
            do {
                outcome = try decoder.receive(into: frame)
            } catch {
                recordDamage(error)
                errorsWithoutInput += 1
                if errorsWithoutInput > Self.stuckErrorLimit { throw error }
                continue
            }
            switch outcome {
            case .frame:
                framesDecoded += 1
                return true
            case .endOfStream:
                return false
            case .needsInput:
                errorsWithoutInput = 0
                guard feed() else { return false }
            }
        }
    }

    /// After the container was repositioned: drop what the decoder holds and read on from there.
    func restart() {
        decoder.flush()
        packet.unref()
        packetPending = false
        inputEnded = false
        endOfStreamSent = false
    }

    /// Gives the decoder its next input: the pending packet, the next packet of this stream, or,
    /// once the input has ended, the end of stream (once). False when there is nothing left to give.
    private func feed() -> Bool {
        if !packetPending {
            guard !inputEnded, readNextPacketOfThisStream() else { return sendEndOfStream() }
        }
        do {
            packetPending = try decoder.send(packet) == .mustReceiveFirst
        } catch {
            // FFmpeg took the packet and failed decoding it (damaged data): go on with the next.
            recordDamage(error)
            packetPending = false
        }
        return true
    }

    /// False when the input has ended, at the end of the file or at a read error.
    private func readNextPacketOfThisStream() -> Bool {
        while true {
            do {
                guard try container.readPacket(into: packet) == .packet else {
                    inputEnded = true
                    return false
                }
            } catch where error.code == marquee_averror_eagain() {
                Thread.sleep(forTimeInterval: Self.retryDelay)
                continue
            } catch {
                readFailure = error
                inputEnded = true
                return false
            }
            if packet.streamIndex == decoder.streamIndex { return true }
        }
    }

    /// True while the decoder may still have frames to give after it.
    private func sendEndOfStream() -> Bool {
        guard !endOfStreamSent else { return false }
        do {
            switch try decoder.sendEndOfStream() {
            case .accepted, .endOfStream:
                endOfStreamSent = true
            case .mustReceiveFirst:
                break  // frames are still waiting: take them, then send the end again
            }
        } catch {
            // As with packets, an error here is the decoding the call did after taking the end of
            // stream (frame threads report late): the end was sent, what remains can still be received.
            recordDamage(error)
            endOfStreamSent = true
        }
        return true
    }

    private func recordDamage(_ error: FFmpegError) {
        damageCount += 1
        lastDamage = error
    }
}
