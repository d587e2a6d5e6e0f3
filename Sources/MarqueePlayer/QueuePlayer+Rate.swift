import MarqueeCore

/// The playback rate (AVPlayer.rate, 0.25 to 4). Playback time is the clock at that rate
/// (`RateClock`): the timeline and the frame scheduler go on as they are, so at 2 the scheduler
/// drops the frames decoding cannot keep up with and at 0.5 holds each frame twice as long.
///
/// The sound is time-stretched, its pitch kept (`AudioTimeStretching`: libavfilter's atempo): the
/// audio thread stretches what it writes from the next block on, each stretch anchored where it
/// starts, so the device's position still says which item frame is heard and video goes on
/// following it. A change is heard one device buffer later (what was written before plays out at
/// the old pace); the picture's clock changes at once and follows the sound back in small steps.
///
/// Without a stretcher (none given, or the backend cannot build one) the sound is muted instead:
/// its decoded audio dropped as it comes, and video stops following the device's clock. Back at 1
/// the sound resumes where the picture is: a seekable item seeks to the position on screen with its
/// sound; any other (a still, a live stream) stays silent to its end and the sound comes back with
/// the next item's first picture.
extension QueuePlayer {
    func setRate(_ rate: Double) {
        let before = clock.rate
        clock.setRate(rate)
        let after = clock.rate
        guard before != after else { return }
        let sound = soundAtRate(after)
        statusStore.publish {
            $0.rate = after
            $0.soundAtRate = sound
        }
        emit(.rateChanged(rate: after, sound: sound))
        guard let renderer = audioRenderer else { return }
        if stretchesSound == true {
            renderer.setRate(RateClock.ratio(after))
            return
        }
        if after != 1 {
            renderer.discard(below: .max)
            return
        }
        // Everything scheduled so far stays silent; what starts from here on is heard.
        renderer.discard(below: pipelineSerial + 1)
        if let position = current?.position, let asset = current?.asset, asset.isSeekable, !asset.isStillImage {
            begin(SeekRequest(time: position, toleranceBefore: .zero, toleranceAfter: .zero, source: nil, completion: { _ in }))
            return
        }
        // The item after this one is prepared again, with its sound, and its sound waits for its
        // first picture: the silent item's remaining time is not known on the audio thread.
        upcoming?.cancel()
        upcoming = nil
        if current != nil {
            releaseAudioHold()
            holdAudioForFirstPicture()
            prepareUpcoming()
        }
    }

    /// What is heard at `rate`. The first rate other than 1 finds out, once, whether the backend
    /// can stretch the sound (building one stretcher); the answer holds for the player's life, so
    /// sound is never stretched at one rate and muted at the next.
    private func soundAtRate(_ rate: Double) -> SoundAtRate {
        guard let renderer = audioRenderer else { return rate == 1 ? .normal : .muted }
        if stretchesSound == nil && rate != 1 {
            if let audioStretching {
                do {
                    _ = try audioStretching.makeStretcher(rate: rate, format: renderer.output.format)
                    stretchesSound = true
                } catch {
                    emit(.error(message: "rate \(rate): the sound cannot be time-stretched (\(error)); it is muted at rates other than 1"))
                    stretchesSound = false
                }
            } else {
                stretchesSound = false
            }
        }
        if rate == 1 { return .normal }
        return stretchesSound == true ? .stretched : .muted
    }
}
