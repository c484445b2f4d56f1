import EditorJS, {
  type I18nDictionary,
  type OutputData,
  type ToolConstructable,
  type ToolSettings,
} from '@editorjs/editorjs';
import Header from '@editorjs/header';
import ImageTool from '@editorjs/image';
import List from '@editorjs/list';
import Underline from '@editorjs/underline';
import { ClearFormatTool, StrikeTool } from './inline-tools';

/**
 * Editor.js as the server's rich text allows it: exactly the blocks and marks it stores
 * (graph/src/lib/rich-text: paragraph, header 1–3, ordered/unordered list, `<b> <i> <u> <s> <a>`,
 * and an image of our own upload where the caller gives an uploader), so the editor cannot write
 * what a save would refuse. This module and the Editor.js packages are one chunk, loaded only by
 * the screens that edit rich text (the blog's edit page, the profile's edit mode).
 */

const isChecklist = (t: { data?: unknown }) => (t.data as { style?: string } | undefined)?.style === 'checklist';
const listToolbox = (() => {
  const all = List.toolbox;
  return Array.isArray(all) ? all : [all];
})();
/** The list tool's checklist entry shares its icon with the checklist style in the block's menu. */
const CHECKLIST_ICON = listToolbox.find(isChecklist)?.icon;

/** The list tool without its checklist style (the server refuses checklists). */
class RichList extends List {
  static get toolbox() {
    return listToolbox.filter((t) => !isChecklist(t));
  }

  renderSettings() {
    return super.renderSettings().filter((item) => !('icon' in item) || item.icon !== CHECKLIST_ICON);
  }
}

const INLINE = ['bold', 'italic', 'underline', 'strike', 'link', 'clear'];

/** Pictures in the text: where they are uploaded (the blog's own image store). Without it, no image tool. */
export interface ImageUploader {
  types: string[];
  uploadByFile(file: Blob & { name?: string }): Promise<{ success: number; file: { url: string } }>;
  uploadByUrl(url: string): Promise<{ success: number; file: { url: string } }>;
}

function toolsWith(images: ImageUploader | undefined): Record<string, ToolConstructable | ToolSettings> {
  return {
    header: {
      class: Header as unknown as ToolConstructable,
      inlineToolbar: INLINE,
      config: { levels: [1, 2, 3], defaultLevel: 2 },
    },
    list: {
      class: RichList as unknown as ToolConstructable,
      inlineToolbar: INLINE,
      config: { defaultStyle: 'unordered', maxLevel: 5 },
    },
    ...(images
      ? {
          image: {
            class: ImageTool as unknown as ToolConstructable,
            config: {
              uploader: { uploadByFile: images.uploadByFile, uploadByUrl: images.uploadByUrl },
              types: images.types.join(','),
              // The page renders what the server stores: a picture and its caption, no border or background.
              features: { border: false, background: false, stretch: false, caption: 'optional' },
            },
          },
        }
      : {}),
    underline: Underline as unknown as ToolConstructable,
    strike: StrikeTool as unknown as ToolConstructable,
    clear: ClearFormatTool as unknown as ToolConstructable,
  };
}

/** Editor.js's own words in Japanese (its toolbox, menus, and the tools' labels). */
const JA: I18nDictionary = {
  ui: {
    blockTunes: { toggler: { 'Click to tune': 'クリックで設定', 'or drag to move': 'ドラッグで移動' } },
    inlineToolbar: { converter: { 'Convert to': '変換' } },
    toolbar: { toolbox: { Add: '追加' } },
    popover: { Filter: '絞り込み', 'Nothing found': '見つかりません', 'Convert to': '変換' },
  },
  toolNames: {
    Text: '本文',
    Heading: '見出し',
    'Unordered List': '箇条書き',
    'Ordered List': '番号付きリスト',
    Image: '画像',
    Link: 'リンク',
    Bold: '太字',
    Italic: '斜体',
    Underline: '下線',
    Strikethrough: '取り消し線',
    'Clear formatting': '書式をクリア',
  },
  tools: {
    link: { 'Add a link': 'リンク先の URL を入力' },
    stub: { 'The block can not be displayed correctly.': 'このブロックは表示できません。' },
    header: { 'Heading 1': '見出し 1', 'Heading 2': '見出し 2', 'Heading 3': '見出し 3' },
    list: {
      Unordered: '箇条書き',
      Ordered: '番号付き',
      'Start with': '開始番号',
      'Counter type': '番号の種類',
      Numeric: '数字',
      'Lower Roman': 'ローマ数字（小文字）',
      'Upper Roman': 'ローマ数字（大文字）',
      'Lower Alpha': 'アルファベット（小文字）',
      'Upper Alpha': 'アルファベット（大文字）',
    },
    image: {
      Caption: 'キャプション',
      'Select an Image': '画像を選択',
      'Couldn’t upload image. Please try another.':
        '画像をアップロードできませんでした。png・jpg・gif で 5 MB までの画像を選んでください。',
    },
  },
  blockTunes: {
    delete: { Delete: '削除', 'Click to delete': 'もう一度クリックで削除' },
    moveUp: { 'Move up': '上へ移動' },
    moveDown: { 'Move down': '下へ移動' },
  },
};

export interface EditorOptions {
  holder: HTMLElement;
  data: OutputData | undefined;
  placeholder: string;
  japanese: boolean;
  images?: ImageUploader;
  onChange(): void;
  onReady(): void;
}

export function createEditor(o: EditorOptions): EditorJS {
  return new EditorJS({
    holder: o.holder,
    data: o.data,
    tools: toolsWith(o.images),
    inlineToolbar: INLINE,
    placeholder: o.placeholder,
    minHeight: 160,
    i18n: o.japanese ? { messages: JA } : undefined,
    onChange: () => o.onChange(),
    onReady: () => o.onReady(),
  });
}

export type { EditorJS, OutputData };
