/** The picker's emojis (spec §9: about 85 to 90): faces, hands and hearts, then workplace things. */
export const EMOJIS: readonly string[] = [
  '😀 😄 😁 😅 😂 🤣 😊 🙂 😉 😍 🥰 😘 😋 😎 🤓 🤔 🤗 🤩 🥳 😴 😮 😲 😳 🥺 😢 😭 😤 😡 😱 😰 😓 🙄 😬',
  '👍 👎 👏 🙌 🙏 👌 ✌️ 🤝 💪 👋 ✋ 👀',
  '❤️ 🧡 💛 💚 💙 💜 🖤 💯 ✨ 🔥 ⭐ 🌟 🎉 🎊 🎁 🎂',
  '☕ 🍺 🍣 🍜 🍰 🌸 🍀 🌈 ☀️ ☔ ⛄',
  '💡 📌 📎 📝 📅 📢 💻 📱 ✅ ❌ ⚠️ ❓ ❗ 🚀 🏆 ⏰',
].flatMap((group) => group.split(' '));
