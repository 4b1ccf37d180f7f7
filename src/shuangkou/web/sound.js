// Short sounds made in the browser by Web Audio oscillators: nothing is downloaded. One tune
// per moment of the game (your turn, a play, a bomb, a pass, the last seconds of your turn,
// the result), and a mute switch the browser remembers (localStorage).

const KEY = "shuangkou.sound";
const VOLUME = 0.18;
const KEPT = 20;

/** Each tune is a list of notes: [frequency Hz, start s, length s, wave, frequency at the end (a slide) or null, loudness]. */
export const TUNES = {
  turn: [[660, 0, 0.11, "sine", null, 1], [988, 0.1, 0.18, "sine", null, 1]],
  play: [[260, 0, 0.08, "triangle", 150, 1]],
  pass: [[392, 0, 0.1, "sine", 294, 0.6]],
  bomb: [[150, 0, 0.55, "sawtooth", 40, 0.8], [75, 0, 0.65, "square", 30, 0.5], [880, 0.02, 0.14, "triangle", 220, 0.4]],
  tick: [[1320, 0, 0.05, "square", null, 0.3]],
  win: [[523, 0, 0.12, "triangle", null, 1], [659, 0.11, 0.12, "triangle", null, 1], [784, 0.22, 0.12, "triangle", null, 1],
    [1047, 0.33, 0.32, "triangle", null, 1]],
  lose: [[392, 0, 0.16, "triangle", null, 1], [330, 0.15, 0.16, "triangle", null, 1], [262, 0.3, 0.36, "triangle", null, 1]],
};

/** The page's sounds. Silent until the player has touched the page (browsers let audio start
 * only after a gesture) and while muted. `played` lists the last tunes sounded. */
export class Sound {
  constructor(storage = globalThis.localStorage) {
    this.storage = storage;
    this.audio = null;
    this.allowed = false;
    this.played = [];
  }

  get muted() {
    return this.storage?.getItem(KEY) === "off";
  }

  setMuted(muted) {
    this.storage?.setItem(KEY, muted ? "off" : "on");
  }

  /** The player touched the page: audio may start. */
  allow() {
    this.allowed = true;
  }

  /** Sound a tune; false when muted, before a gesture or without Web Audio. */
  play(name) {
    const context = this.muted || !this.allowed ? null : this.context();
    if (!context) return false;
    const start = context.currentTime + 0.01;
    for (const [frequency, at, length, wave, slide, loudness] of TUNES[name]) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      const begin = start + at;
      oscillator.type = wave;
      oscillator.frequency.setValueAtTime(frequency, begin);
      if (slide) oscillator.frequency.exponentialRampToValueAtTime(slide, begin + length);
      gain.gain.setValueAtTime(0.0001, begin);
      gain.gain.exponentialRampToValueAtTime(VOLUME * loudness, begin + 0.012);
      gain.gain.exponentialRampToValueAtTime(0.0001, begin + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(begin);
      oscillator.stop(begin + length + 0.02);
    }
    this.played = [...this.played.slice(1 - KEPT), name];
    return true;
  }

  context() {
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return null;
    if (!this.audio) this.audio = new Context();
    if (this.audio.state === "suspended") this.audio.resume();
    return this.audio;
  }
}
