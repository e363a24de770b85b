/** Issue #14 part B: the local receipt (comprovante) on the detail page, and the notifications switch. */
export const receipts = {
  'pt-BR': {
    title: 'Comprovante guardado',
    state: {
      none: 'O serviço ainda não informou um comprovante para este pagamento.',
      pending:
        'Comprovante ainda não obtido ({{attempts}} tentativa(s)). Uma nova tentativa será feita automaticamente.',
      gave_up: 'Comprovante indisponível: não foi possível obtê-lo após {{attempts}} tentativa(s).',
      damaged_missing: 'O arquivo do comprovante não foi encontrado na pasta do registro.',
      damaged_hash_mismatch: 'O arquivo do comprovante foi alterado depois de guardado e não será exibido.',
    },
    fetchedAt: 'Obtido em',
    stored: '{{size}} · SHA-256 {{hash}}…',
    pdfNote: 'Comprovante em PDF: use “Salvar comprovante” ou “Imprimir” para abri-lo.',
    frameTitle: 'Comprovante do pagamento',
    save: 'Salvar comprovante',
    print: 'Imprimir',
    saved: 'Comprovante salvo.',
    failed: 'Não foi possível concluir a ação com o comprovante.',
    exportOption: 'Incluir os comprovantes guardados (conferidos pelo manifesto assinado)',
    notifications: {
      title: 'Notificações',
      label: 'Mostrar notificações na área de trabalho',
      hint: 'Pagamento efetuado ou devolvido, prazo do depósito terminando e resultado desconhecido. A chave Pix aparece mascarada.',
    },
  },
  en: {
    title: 'Stored receipt',
    state: {
      none: 'The service has not reported a receipt for this withdrawal yet.',
      pending: 'Receipt not fetched yet ({{attempts}} attempt(s)). It will be tried again automatically.',
      gave_up: 'Receipt unavailable: it could not be fetched after {{attempts}} attempt(s).',
      damaged_missing: 'The receipt file was not found in the ledger folder.',
      damaged_hash_mismatch: 'The receipt file changed after it was stored and will not be shown.',
    },
    fetchedAt: 'Fetched',
    stored: '{{size}} · SHA-256 {{hash}}…',
    pdfNote: 'PDF receipt: use “Save receipt” or “Print” to open it.',
    frameTitle: 'Payment receipt',
    save: 'Save receipt',
    print: 'Print',
    saved: 'Receipt saved.',
    failed: 'The receipt action could not be completed.',
    exportOption: 'Include the stored receipts (checked by the signed manifest)',
    notifications: {
      title: 'Notifications',
      label: 'Show desktop notifications',
      hint: 'Payment made or returned, deposit deadline near and outcome unknown. The Pix key is shown masked.',
    },
  },
} as const
