import CFFmpeg
import MarqueeCore

/// Decodes the packets of one stream (video or audio) that `StreamDemuxer` hands it, riding out
/// damage: a packet the decoder rejects is skipped, so a damaged file plays what can be played.
///
/// Reading belongs to the demuxer, so that one loop over the container feeds every stream in the
/// order the file interleaves them. One decode thread uses it. Expected outcomes (a frame, "give me
/// more", the end) are return values; only what stops decoding altogether is thrown.
final class StreamDecoder {
    let decoder: CodecContext
    /// A packet the decoder refused until its pending frames were taken: sent again before anything
    /// else. It is the demuxer's packet, which the demuxer leaves alone until this is nil again.
    private var refusedPacket: Packet?
    private var inputFinished = false
    private var endOfStreamSent = false
    /// Every frame has been delivered after the end of the input.
    private(set) var isFinished = false

    /// Frames delivered since the container was opened.
    private(set) var framesDecoded = 0
    /// Packets or frames lost to damage since the container was opened.
    private(set) var damageCount = 0
    /// The last decode failure, kept as the cause to report if nothing at all can be decoded.
    private(set) var lastDamage: FFmpegError?

    /// A decoder that reports errors (or refuses input while having nothing to give) this many times
    /// in a row without being given anything new is stuck, not damaged; stopping beats spinning
    /// forever on a device nobody watches.
    static let stuckErrorLimit = 64

    /// - Parameter threadCount: 0 lets FFmpeg pick (one more than the cores); video takes one per
    ///   core (`FFmpegMediaReader.videoThreadCount`: frame and slice threading, what video needs);
    ///   audio decoders gain nothing from threads.
    init(stream streamIndex: Int, of container: InputContainer, threadCount: Int) throws(FFmpegError) {
        decoder = try CodecContext(decoding: streamIndex, of: container, threadCount: threadCount)
    }

    var streamIndex: Int { decoder.streamIndex }
    var timeBase: AVRational { decoder.timeBase }

    /// Hands the decoder one packet of its stream. Decoding errors count as damage, not failure.
    func send(_ packet: Packet) {
        precondition(refusedPacket == nil && !inputFinished, "a packet was sent out of turn")
        deliver(packet)
    }

    /// No more packets follow (end of file or read error): the decoder releases what it holds back
    /// (B-frame reordering, frame threads).
    func finishInput() {
        guard !inputFinished else { return }
        inputFinished = true
        deliverEndOfStream()
    }

    /// Fills `frame` with the next frame; false when the decoder wants another packet, or, once
    /// `isFinished`, has nothing left at all.
    func receive(into frame: Frame) throws(FFmpegError) -> Bool {
        var attemptsWithoutProgress = 0
        while true {
            let outcome: CodecContext.ReceiveOutcome
            do {
                outcome = try decoder.receive(into: frame)
            } catch {
                recordDamage(error)
                attemptsWithoutProgress += 1
                if attemptsWithoutProgress > Self.stuckErrorLimit { throw error }
                continue
            }
            switch outcome {
            case .frame:
                framesDecoded += 1
                return true
            case .endOfStream:
                isFinished = true
                return false
            case .needsInput:
                if let refusedPacket {
                    // FFmpeg's contract says a refused send is followed by frames; a decoder that
                    // keeps refusing and keeps having none is broken.
                    attemptsWithoutProgress += 1
                    if attemptsWithoutProgress > Self.stuckErrorLimit {
                        throw FFmpegError(code: marquee_averror_eagain(), operation: "avcodec_send_packet (refused with no frame pending)")
                    }
                    deliver(refusedPacket)
                } else if inputFinished {
                    if endOfStreamSent {
                        // Asking for input after the end was taken means there is nothing more.
                        isFinished = true
                        return false
                    }
                    deliverEndOfStream()
                } else {
                    return false
                }
            }
        }
    }

    /// After the container was repositioned (or after packets of this stream were skipped): drop
    /// what the decoder holds and take packets from the new position.
    func restart() {
        decoder.flush()
        refusedPacket = nil
        inputFinished = false
        endOfStreamSent = false
        isFinished = false
    }

    private func deliver(_ packet: Packet) {
        do {
            refusedPacket = try decoder.send(packet) == .mustReceiveFirst ? packet : nil
        } catch {
            // FFmpeg took the packet and failed decoding it (damaged data): go on with the next.
            recordDamage(error)
            refusedPacket = nil
        }
    }

    private func deliverEndOfStream() {
        guard !endOfStreamSent else { return }
        do {
            switch try decoder.sendEndOfStream() {
            case .accepted, .endOfStream:
                endOfStreamSent = true
            case .mustReceiveFirst:
                break  // frames are still waiting: `receive` takes them, then sends the end again
            }
        } catch {
            // As with packets, an error here is the decoding the call did after taking the end of
            // stream (frame threads report late): the end was sent, what remains can still be received.
            recordDamage(error)
            endOfStreamSent = true
        }
    }

    private func recordDamage(_ error: FFmpegError) {
        damageCount += 1
        lastDamage = error
    }
}
